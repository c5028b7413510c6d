// Two instances as one portal: a real PostgreSQL, Redis and nginx on free loopback ports, two `next start` of
// the production build on one database and one Redis, the sandbox behind both. Through nginx and directly:
// limits counted once; a change through one seen on the other within 1 s; 100 identical concurrent reads → one
// upstream call; /metrics; a 300-code bulk job that survives kill -9 of an instance with every code checked
// once and none failed; Redis killed and restarted with reads answered throughout and a later job finished;
// SIGTERM under load failing no request; a breaker opened on one sparing the upstream on the other.
// The tests share the instances, so none leaves them broken for the next: before each test the cluster is made
// whole again (two live instances behind nginx, Redis up, no sandbox fault), whatever the test before did.
import pg from "pg";
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFinished } from "vitest";

import { FIXED_PURCHASE_CODES } from "@/lib/sandbox";

import { CANARY } from "@/tests/support/canary";
import { sandboxEnv, startGateway, type GatewayProcess, type SignedInClient } from "@/tests/support/gateway";
import { startTestNginx, type TestNginx } from "@/tests/support/nginx";
import { startTestPostgres, type TestPostgres } from "@/tests/support/postgres";
import { startTestRedis, type TestRedis } from "@/tests/support/redis";
import { REPORTS, reportPath, upstreamCalls, VALIDATION } from "@/tests/support/resilience";
import { startTestSandbox, type TestSandbox } from "@/tests/support/sandbox";
import { until } from "@/tests/support/until";

const METRICS_TOKEN = "cluster-test-metrics-token-0123456789abcdef";
const PER_USER = 6;

let sandbox: TestSandbox;
let postgres: TestPostgres;
let redis: TestRedis;
let nginx: TestNginx;
let databaseUrl: string;
let env: Record<string, string | undefined>;
const instances: GatewayProcess[] = [];
let admin: SignedInClient;
let redisDown = false;
const INSTANCE_NAMES = ["one", "two", "three", "four", "five", "six", "seven", "eight"];
let started = 0;

/** A new instance; its PostgreSQL connections carry its name (application_name), so a test can tell them apart. */
async function startInstance(): Promise<GatewayProcess> {
  const name = INSTANCE_NAMES[started++] ?? `instance-${started}`;
  const url = new URL(databaseUrl);
  url.searchParams.set("application_name", `gatehouse-${name}`);
  return startGateway({ ...env, DATABASE_URL: url.toString(), INSTANCE_ID: name });
}

const gone = (instance: GatewayProcess) =>
  instance.child.killed || instance.child.exitCode !== null || instance.child.signalCode !== null;

/** Two live instances behind nginx, Redis up, no fault in the sandbox: what every test starts from. */
async function makeClusterWhole(): Promise<void> {
  await sandbox.clearFaults();
  if (redisDown) {
    await redis.start();
    redisDown = false;
  }
  const dead = instances.filter(gone);
  if (dead.length === 0 && instances.length === 2) return;
  for (const instance of dead) {
    instances.splice(instances.indexOf(instance), 1);
    await instance.stop().catch(() => {});
  }
  while (instances.length < 2) instances.push(await startInstance());
  await nginx.setUpstreams(instances.map((instance) => new URL(instance.url).host));
}

/** A request with the admin's session, to any base URL (an instance, or nginx). */
async function send(
  base: string,
  pathname: string,
  init: RequestInit = {},
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON
): Promise<{ status: number; json: any; text: string }> {
  const headers = new Headers(init.headers);
  headers.set("Cookie", admin.cookie());
  if ((init.method ?? "GET") !== "GET") headers.set("X-CSRF", "1");
  if (init.body) headers.set("Content-Type", "application/json");
  const res = await fetch(base + pathname, { ...init, headers, redirect: "manual" });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, json, text };
}

const code = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;

beforeAll(async () => {
  [sandbox, postgres, redis] = await Promise.all([
    startTestSandbox({ extraKeys: { reports: [CANARY.reports], items: { [CANARY.items]: "main" } } }),
    startTestPostgres(),
    startTestRedis(),
  ]);
  databaseUrl = await postgres.createDatabase();
  env = sandboxEnv(sandbox, {
    DATABASE_URL: databaseUrl,
    REDIS_URL: redis.url,
    METRICS_TOKEN,
    PURCHASE_RATE_LIMIT_PER_USER: String(PER_USER),
    UPSTREAM_CACHE_REPORTS_TTL_MS: "60000",
    UPSTREAM_BREAKER_FAILURES: "2",
    UPSTREAM_BREAKER_OPEN_MS: "5000",
  });
  // Both first starts at once, on one fresh database: migrations run once (PostgreSQL's advisory lock).
  instances.push(...(await Promise.all([startInstance(), startInstance()])));
  nginx = await startTestNginx(instances.map((instance) => new URL(instance.url).host));
  admin = await instances[0]!.signIn("admin");
}, 120_000);

beforeEach(makeClusterWhole, 120_000);

afterAll(async () => {
  await Promise.allSettled(instances.map((instance) => instance.stop()));
  await Promise.allSettled([nginx?.stop(), redis?.stop(), postgres?.stop(), sandbox?.close()]);
});

describe("two instances behind nginx, on one PostgreSQL and one Redis", () => {
  it("count the purchase-check limit once, whichever instance is asked", async () => {
    const bases = [instances[0]!.url, instances[1]!.url, nginx.url];
    const statuses: number[] = [];
    for (let i = 0; i < 2 * PER_USER; i++) {
      const res = await send(bases[i % 3]!, "/api/purchases/validate", {
        method: "POST",
        body: JSON.stringify({ purchase_code: FIXED_PURCHASE_CODES.active }),
      });
      statuses.push(res.status);
    }
    expect(statuses.filter((status) => status === 200)).toHaveLength(PER_USER);
    expect(statuses.filter((status) => status === 429)).toHaveLength(PER_USER);
  });

  it("show a change made through one instance on the other within 1 s", async () => {
    const [one, two] = instances as [GatewayProcess, GatewayProcess];
    const before = (await send(two.url, "/api/reports/3")).json.data;
    const privacy = before.privacy === 0 ? 1 : 0;
    expect((await send(one.url, "/api/reports/3", { method: "PATCH", body: JSON.stringify({ privacy }) })).status).toBe(
      200,
    );
    await until(
      async () => (await send(two.url, "/api/reports/3")).json.data.privacy === privacy,
      "instance two shows the change",
      1_000,
    );
    await until(
      async () => (await send(nginx.url, "/api/reports/3")).json.data.privacy === privacy,
      "nginx shows the change",
      1_000,
    );
  });

  it("make one upstream call for 100 identical concurrent reads over both, directly and through nginx", async () => {
    const bases = [instances[0]!.url, instances[1]!.url, nginx.url];
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) => send(bases[i % 3]!, "/api/reports?per_page=10&page=3&result=good")),
    );
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    const calls = (await upstreamCalls(sandbox, "GET", REPORTS)).filter(
      (call) => call.query.per_page === "10" && call.query.page === "3",
    );
    expect(calls).toHaveLength(1);
  });

  it("serve /metrics as Prometheus text to the token only", async () => {
    expect((await fetch(`${nginx.url}/metrics`)).status).toBe(401);
    expect(
      (
        await fetch(`${nginx.url}/metrics`, {
          headers: { Authorization: "Bearer not-the-token-at-all-0123456789abcdef" },
        })
      ).status,
    ).toBe(401);
    const res = await fetch(`${instances[0]!.url}/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    const names = new Set<string>();
    for (const line of text.split("\n").filter((each) => each !== "")) {
      // A comment (# HELP / # TYPE name …) or a sample: name{label="value",…} number.
      const match =
        /^(?:# (?:HELP|TYPE) ([a-zA-Z_:][\w:]*) .*|([a-zA-Z_:][\w:]*)(?:\{(?:[a-zA-Z_]\w*="(?:[^"\\]|\\.)*",?)*\})? (-?(?:\d+(?:\.\d+)?(?:e[+-]?\d+)?|nan|\+inf|-inf)))$/i.exec(
          line,
        );
      expect(match, line).not.toBeNull();
      if (match?.[2]) names.add(match[2]);
    }
    for (const name of [
      "gatehouse_http_requests_total",
      "gatehouse_http_request_duration_seconds_bucket",
      "gatehouse_upstream_calls_total",
      "gatehouse_upstream_cache_total",
      "gatehouse_upstream_breaker_state",
      "gatehouse_jobs_waiting",
      "gatehouse_process_resident_memory_bytes",
    ]) {
      expect(names, name).toContain(name);
    }
    expect(text).toContain(`gatehouse_instance="${instances[0]!.env.INSTANCE_ID}"`);
    // Every log line names the instance that wrote it.
    expect(instances[0]!.logLines().length).toBeGreaterThan(0);
    for (const instance of instances)
      expect(instance.logLines().every((line) => line.instance === instance.env.INSTANCE_ID)).toBe(true);
  });

  it("finish a 300-code bulk job after kill -9 of an instance between a code's result and its history row: every code checked, in the history once, none failed", async () => {
    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    onTestFinished(async () => {
      // Let go of the lock first: a held insert blocks the trigger's removal.
      await db.query("select pg_advisory_unlock_all()").catch(() => {});
      await db.query("drop trigger if exists hold_victims_history on purchase_checks").catch(() => {});
      await db.end();
    });
    const victim = instances[0]!;
    const victimConnections = `gatehouse-${victim.env.INSTANCE_ID}`;
    // The kill must land where it once did by chance: the victim has an answer in hand and is about to write its
    // history row. A trigger holds the victim's history inserts (only its connections) on a lock this test holds.
    const HOLD = 2028;
    await db.query("select pg_advisory_lock($1)", [HOLD]);
    await db.query(`create or replace function hold_victims_history() returns trigger language plpgsql as $$
      begin
        if current_setting('application_name') = '${victimConnections}' then perform pg_advisory_xact_lock(${HOLD}); end if;
        return new;
      end $$`);
    await db.query(
      "create trigger hold_victims_history before insert on purchase_checks for each row execute function hold_victims_history()",
    );

    await sandbox.injectFault({ method: "POST", path: VALIDATION, kind: "latency", latencyMs: 30 });
    await sandbox.clearRequests();
    const codes = [FIXED_PURCHASE_CODES.active, ...Array.from({ length: 299 }, (_, i) => code(i + 1))];
    const created = await send(nginx.url, "/api/purchases/bulk", { method: "POST", body: JSON.stringify({ codes }) });
    expect(created.status, created.text + nginx.errorLog()).toBe(202);
    const id = created.json.data.id as string;
    onTestFinished(async () => {
      // A test that failed midway must not leave its job to hold up the next tests' jobs.
      await send(nginx.url, `/api/purchases/bulk/${id}`, { method: "DELETE" }).catch(() => {});
    });
    const heldByVictim = async () =>
      Number(
        (
          await db.query<{ n: string }>(
            "select count(*) as n from pg_stat_activity where application_name = $1 and wait_event = 'advisory'",
            [victimConnections],
          )
        ).rows[0]!.n,
      );
    await until(async () => (await heldByVictim()) > 0, "the victim about to write a history row", 30_000);

    await victim.kill();
    // PostgreSQL notices a dead client only when it next reads from its socket: end the victim's sessions, as its
    // death does, so that its held insert never runs (before, its result was already committed by then).
    await db.query("select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1", [
      victimConnections,
    ]);
    await db.query("select pg_advisory_unlock($1)", [HOLD]);
    // The load balancer keeps serving from the survivor.
    const job = await until(
      async () => {
        const res = await send(nginx.url, `/api/purchases/bulk/${id}`);
        return res.json?.data?.status === "done" ? res.json.data : undefined;
      },
      "the job finishes on the surviving instance",
      60_000,
    );
    expect(job).toMatchObject({ total: 300, done: 300, valid: 1, invalid: 299, failed: 0 });
    expect(job.results.map((result: { index: number }) => result.index)).toEqual(
      Array.from({ length: 300 }, (_, i) => i),
    );
    expect(
      job.results.every((result: { status: string }) => result.status === "valid" || result.status === "invalid"),
    ).toBe(true);
    // Once in the history each; the upstream was asked at least once for each (a check in flight at the kill again).
    const history = await db.query<{ n: string; codes: string }>(
      "select count(*) as n, count(distinct code_hash) as codes from purchase_checks where bulk_job_id = $1",
      [id],
    );
    expect(history.rows[0]).toEqual({ n: "300", codes: "300" });
    const asked = new Set((await upstreamCalls(sandbox, "POST", VALIDATION)).map((call) => call.form?.purchase_code));
    expect(asked.size).toBe(300);
    // The killed instance comes back (a new process on a new port) before the next test: makeClusterWhole.
  }, 120_000);

  it("answer reads while Redis is killed and after it restarts empty, and finish a job created afterwards", async () => {
    const path = "/api/reports?per_page=25&page=2";
    expect((await send(nginx.url, path)).status).toBe(200);
    await redis.kill();
    redisDown = true;
    for (const base of [nginx.url, ...instances.map((instance) => instance.url)]) {
      expect((await send(base, path)).status).toBe(200);
      expect((await send(base, "/api/reports?per_page=25&page=4")).status).toBe(200);
    }
    await redis.start();
    redisDown = false;
    await until(
      async () =>
        (await send(instances[0]!.url, "/api/ready", { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } })).json
          ?.dependencies?.redis?.reachable === true,
      "Redis is reachable again",
      15_000,
    );
    const created = await send(nginx.url, "/api/purchases/bulk", {
      method: "POST",
      body: JSON.stringify({ codes: [code(500), code(501), FIXED_PURCHASE_CODES.expired] }),
    });
    expect(created.status, created.text).toBe(202);
    const job = await until(
      async () => {
        const res = await send(nginx.url, `/api/purchases/bulk/${created.json.data.id}`);
        return res.json?.data?.status === "done" ? res.json.data : undefined;
      },
      "the job created after the restart finishes",
      30_000,
    );
    expect(job).toMatchObject({ total: 3, failed: 0 });
  }, 60_000);

  it("fail no request through nginx while an instance stops (SIGTERM) under load", async () => {
    const stopping = instances[0]!;
    let running = true;
    const failures: string[] = [];
    let answered = 0;
    const worker = async () => {
      for (let i = 0; running; i++) {
        const res = await send(nginx.url, i % 2 ? "/api/reports?per_page=25&page=2" : "/api/reports/3").catch(
          (error: Error) => ({ status: 0, text: error.message }),
        );
        if (res.status === 200) answered += 1;
        else failures.push(`${res.status} ${res.text.slice(0, 200)}`);
      }
    };
    const load = Array.from({ length: 8 }, worker);
    await until(async () => answered > 40, "load is flowing", 10_000);
    const exited = new Promise((resolve) => stopping.child.once("exit", resolve));
    stopping.child.kill("SIGTERM");
    const t0 = Date.now();
    await exited;
    expect(Date.now() - t0).toBeLessThan(10_000);
    const after = answered;
    await until(async () => answered > after + 40, "the survivor answers everything", 10_000);
    running = false;
    await Promise.all(load);
    expect(failures).toEqual([]);
  }, 60_000);

  it("spare the upstream on one instance once the other's breaker opened", async () => {
    const [one, two] = instances as [GatewayProcess, GatewayProcess];
    await sandbox.injectFault({ method: "GET", path: reportPath(7), kind: "status", status: 503 });
    for (let i = 0; i < 2; i++) expect((await send(one.url, "/api/reports/7")).status).toBe(502);
    const ready = await until(
      async () => {
        const res = await send(two.url, "/api/ready", { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } });
        return res.json?.breakers?.reports?.state === "open" ? res : undefined;
      },
      "instance two's breaker opens too",
      2_000,
    );
    expect(ready.status).toBe(503);
    const calls = (await upstreamCalls(sandbox, "GET", reportPath(7))).length;
    const refused = await send(two.url, "/api/reports/7");
    expect(refused.status).toBe(503);
    expect(refused.json.error.code).toBe("upstream_unavailable");
    expect((await upstreamCalls(sandbox, "GET", reportPath(7))).length).toBe(calls);
  });
});
