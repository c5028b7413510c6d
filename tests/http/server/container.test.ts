// The container files — Dockerfile, compose.yaml, deploy/nginx.conf — proven as far as the machine allows (issue 37).
// An image needs a container engine that runs and a base image it can pull. Where `docker info` or `podman info`
// answers, the image is built and run until its own health check passes. Where neither does (this project's
// machines: a docker client at most, no engine, and no registry but npm's and Debian's), the test says so, and
// runs what the image runs outside a container: the standalone folder copied on its own (as the Dockerfile's COPY
// does, so that nothing is found in the project's node_modules), started with the image's command in that folder
// with the image's environment (on Redis, traces on), checked with the image's health check, signed in to, behind
// deploy/nginx.conf, given a bulk check to run on the job system, and stopped with its stop signal. The files
// themselves are read and checked against what the code expects.
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";

import { DEFAULT_HTTP_SERVER, HTTP_SERVER_VARIABLES } from "@/lib/config/http-server";

import { sandboxEnv, TEST_ADMIN, TEST_SESSION_SECRET } from "@/tests/support/gateway";
import { startTestNginx, type TestNginx } from "@/tests/support/nginx";
import { startOtlpReceiver, type OtlpReceiver } from "@/tests/support/otlp-receiver";
import { assertBuilt, freePort, ROOT, spawnCommand, untilHealthy, type Spawned } from "@/tests/support/processes";
import { startTestRedis, type TestRedis } from "@/tests/support/redis";
import { startCanarySandbox, type TestSandbox } from "@/tests/support/sandbox";

const DOCKERFILE = readFileSync(path.join(ROOT, "Dockerfile"), "utf8");
const COMPOSE = parseYaml(readFileSync(path.join(ROOT, "compose.yaml"), "utf8"), { merge: true }) as {
  services: Record<string, Record<string, unknown> & { environment?: Record<string, string> }>;
};
const NGINX_CONF = readFileSync(path.join(ROOT, "deploy", "nginx.conf"), "utf8");

/** The Dockerfile's last stage (what runs), its instructions joined across continued lines. */
function runtimeStage(): string[] {
  const lines = DOCKERFILE.replace(/\\\n\s*/g, " ")
    .split("\n")
    .filter((line) => line.trim() !== "" && !line.trimStart().startsWith("#"));
  const from = lines.findLastIndex((line) => line.startsWith("FROM "));
  return lines.slice(from);
}

function instruction(name: string): string {
  const found = runtimeStage().filter((line) => line.startsWith(`${name} `));
  expect(found, `one ${name} in the runtime stage`).toHaveLength(1);
  return found[0]!.slice(name.length + 1).trim();
}

/** ENV a=b c=d … of the runtime stage. */
function imageEnv(): Record<string, string> {
  return Object.fromEntries(
    runtimeStage()
      .filter((line) => line.startsWith("ENV "))
      .flatMap((line) => [...line.slice(4).matchAll(/([A-Z_]+)=(\S+)/g)].map((match) => [match[1]!, match[2]!])),
  );
}

/** An exec-form instruction (CMD, HEALTHCHECK … CMD) as its argument list. */
function execForm(text: string): string[] {
  return JSON.parse(text.slice(text.indexOf("["))) as string[];
}

/** A container engine that runs here, or why there is none. */
function containerEngine(): { name: string } | { none: string } {
  const reasons: string[] = [];
  for (const name of ["docker", "podman"]) {
    const info = spawnSync(name, ["info"], { encoding: "utf8", timeout: 15_000 });
    if (info.status === 0) return { name };
    reasons.push(
      info.error
        ? `${name}: not installed`
        : `${name}: ${(info.stderr || info.stdout).trim().split("\n").at(-1) ?? `exit ${info.status}`}`,
    );
  }
  return { none: reasons.join("; ") };
}

describe("the container files", () => {
  it("the image runs as a user of its own, keeps the store on the /data volume, and says how healthy it is", () => {
    expect(instruction("USER")).toBe("gatehouse");
    expect(instruction("VOLUME")).toBe('["/data"]');
    expect(imageEnv().DATABASE_URL).toMatch(/^\/data\//);
    expect(instruction("STOPSIGNAL")).toBe("SIGTERM");
    expect(execForm(instruction("HEALTHCHECK")).join(" ")).toContain("/api/health");
    expect(execForm(instruction("CMD"))).toEqual(["node", "--import", "./server-preload.mjs", "server.js"]);
  });

  it("gives the server the slow-client limits npm start hands it (lib/config/http-server.ts's defaults)", () => {
    const env = imageEnv();
    for (const [field, name] of Object.entries(HTTP_SERVER_VARIABLES))
      expect(env[name], name).toBe(String(DEFAULT_HTTP_SERVER[field as keyof typeof DEFAULT_HTTP_SERVER]));
  });

  it("compose.yaml: two instances of the image on one PostgreSQL and one Redis, nginx in front, each with a health check", () => {
    const { services } = COMPOSE;
    const instances = Object.keys(services).filter((name) => services[name]!.image === "gatehouse");
    expect(instances).toEqual(["gatehouse-1", "gatehouse-2"]);
    const ids = instances.map((name) => services[name]!.environment!.INSTANCE_ID);
    expect(new Set(ids).size).toBe(2);
    for (const name of instances) {
      const env = services[name]!.environment!;
      expect(env.DATABASE_URL).toMatch(/^postgres:\/\/.*@postgres:5432\//);
      expect(env.REDIS_URL).toMatch(/@redis:6379\//);
      expect(env.TRUST_PROXY).toBe("1");
      expect(Object.keys(services[name]!.depends_on as object).sort()).toEqual(["postgres", "redis"]);
    }
    for (const name of ["postgres", "redis", "nginx"]) expect(services[name]!.healthcheck, name).toBeDefined();
    // nginx's upstreams are the two instances, by their service names, on the image's port.
    const upstreams = [...NGINX_CONF.matchAll(/^\s*server (\S+):(\d+) /gm)].map((match) => match.slice(1, 3));
    expect(upstreams).toEqual(instances.map((name) => [name, imageEnv().PORT]));
  });
});

const engine = containerEngine();
if ("none" in engine)
  console.info(
    `container.test: no container engine runs here (${engine.none}); the image is not built. Proven instead: the standalone folder the image copies, run as the image runs it, outside a container.`,
  );

describe.runIf("name" in engine)("the image, built and run by the container engine", () => {
  const name = "name" in engine ? engine.name : "";
  const tag = `gatehouse-test-${process.pid}`;
  afterAll(() => {
    spawnSync(name, ["rm", "-f", tag]);
    spawnSync(name, ["rmi", "-f", tag]);
  });

  it("builds, starts and reports itself healthy", { timeout: 1_200_000 }, async () => {
    const build = spawnSync(name, ["build", "-t", tag, ROOT], { encoding: "utf8" });
    expect(build.status, build.stderr).toBe(0);
    const run = spawnSync(
      name,
      ["run", "-d", "--name", tag, "-e", `SESSION_SECRET=${TEST_SESSION_SECRET}`, "-e", "GATEHOUSE_DEMO=1", tag],
      { encoding: "utf8" },
    );
    expect(run.status, run.stderr).toBe(0);
    await expect
      .poll(
        () =>
          spawnSync(name, ["inspect", "--format", "{{.State.Health.Status}}", tag], { encoding: "utf8" }).stdout.trim(),
        {
          timeout: 120_000,
        },
      )
      .toBe("healthy");
  });
});

describe("the image's server, run as the image runs it, outside a container", () => {
  let app: string;
  let data: string;
  let sandbox: TestSandbox;
  let server: Spawned;
  let nginx: TestNginx;
  let redis: TestRedis;
  let traces: OtlpReceiver;
  let url: string;

  beforeAll(async () => {
    assertBuilt();
    // COPY --from=build /app/.next/standalone ./ and the preload beside it, in a folder outside the project.
    app = mkdtempSync(path.join(tmpdir(), "gatehouse-image-"));
    cpSync(path.join(ROOT, process.env.NEXT_DIST_DIR || ".next", "standalone"), app, { recursive: true });
    cpSync(path.join(ROOT, "lib", "cli", "server-preload.mjs"), path.join(app, "server-preload.mjs"));
    data = mkdtempSync(path.join(tmpdir(), "gatehouse-image-data-"));
    sandbox = await startCanarySandbox();
    // Redis (the job system on BullMQ, the limits) and traces: what loads the most modules by name at run time.
    redis = await startTestRedis();
    traces = await startOtlpReceiver();
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    const [command, ...args] = execForm(instruction("CMD"));
    expect(command).toBe("node");
    server = spawnCommand(process.execPath, args, {
      cwd: app,
      env: {
        ...imageEnv(),
        ...sandboxEnv(sandbox),
        // The image listens on 0.0.0.0:3000 with its store on /data; here, a free loopback port and a folder.
        HOSTNAME: "127.0.0.1",
        PORT: String(port),
        DATABASE_URL: path.join(data, "gatehouse.db"),
        SESSION_SECRET: TEST_SESSION_SECRET,
        ADMIN_EMAIL: TEST_ADMIN.email,
        ADMIN_PASSWORD: TEST_ADMIN.password,
        TRUST_PROXY: "1",
        REDIS_URL: redis.url,
        OTEL_EXPORTER_OTLP_ENDPOINT: traces.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
        OTEL_BSP_SCHEDULE_DELAY: "20",
      },
    });
    await untilHealthy(url, server);
    // deploy/nginx.conf with this port in place of the two instances' (tests/support/nginx.ts).
    nginx = await startTestNginx([`127.0.0.1:${port}`]);
  }, 120_000);

  afterAll(async () => {
    await nginx?.stop();
    await server?.stop();
    await sandbox?.close();
    await redis?.stop();
    await traces?.close();
    for (const folder of [app, data]) if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it("passes the image's own health check", () => {
    const [command, ...args] = execForm(instruction("HEALTHCHECK"));
    const check = spawnSync(command === "node" ? process.execPath : command!, args, {
      env: { ...process.env, PORT: new URL(url).port },
      encoding: "utf8",
      timeout: 10_000,
    });
    expect(check.status, check.stderr).toBe(0);
  });

  it("signs the first admin in behind deploy/nginx.conf, and lists reports through the upstream", async () => {
    const login = await fetch(`${nginx.url}/api/auth/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-CSRF": "1" },
      body: JSON.stringify(TEST_ADMIN),
    });
    expect(login.status, await login.clone().text()).toBe(200);
    const cookie = login.headers
      .getSetCookie()
      .map((line) => line.split(";")[0])
      .join("; ");
    const reports = await fetch(`${nginx.url}/api/reports`, { headers: { Cookie: cookie } });
    expect(reports.status, await reports.clone().text()).toBe(200);
    expect(((await reports.json()) as { data: unknown[] }).data.length).toBeGreaterThan(0);
    expect((await fetch(`${nginx.url}/api/ready`)).status).toBe(200);
  });

  it("runs a bulk check on the job system over Redis, and sends its traces", async () => {
    const login = await fetch(`${url}/api/auth/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-CSRF": "1" },
      body: JSON.stringify(TEST_ADMIN),
    });
    const cookie = login.headers
      .getSetCookie()
      .map((line) => line.split(";")[0])
      .join("; ");
    const created = await fetch(`${url}/api/purchases/bulk`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-CSRF": "1", Cookie: cookie },
      body: JSON.stringify({ codes: ["86781236-23d0-4b3c-7dfa-c1c147e0dece", "00000000-0000-4000-8000-000000000000"] }),
    });
    expect(created.status, await created.clone().text()).toBe(202);
    const { id } = ((await created.json()) as { data: { id: string } }).data;
    await expect
      .poll(async () => {
        const job = await fetch(`${url}/api/purchases/bulk/${id}`, { headers: { Cookie: cookie } });
        return ((await job.json()) as { data: { status: string } }).data.status;
      })
      .toBe("done");
    await expect.poll(() => traces.spans().some((span) => span.name === "upstream.call")).toBe(true);
  });

  it("keeps its store where DATABASE_URL says, outside the image's folder", () => {
    expect(readFileSync(path.join(data, "gatehouse.db")).subarray(0, 15).toString()).toBe("SQLite format 3");
  });

  it("drains and exits 0 on the image's stop signal", async () => {
    server.child.kill(instruction("STOPSIGNAL") as NodeJS.Signals);
    expect(await server.exited).toBe(0);
  });
});
