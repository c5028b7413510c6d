// A throwaway nginx load balancer for tests: Debian's nginx in the foreground on a free 127.0.0.1 port, its own
// prefix folder, proxying to the given instances with the settings of the reference deployment as shipped
// (deploy/nginx.conf, which compose.yaml mounts): passive health checks, and a request the first instance could not take (connection
// refused, reset, 502/503/504) passed to the next one. setUpstreams() rewrites the list and reloads nginx.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { freePort, ROOT } from "./processes";

export interface TestNginx {
  url: string;
  /** Replaces the instances behind it ("127.0.0.1:port" each) and reloads; resolves once the reload has happened. */
  setUpstreams(upstreams: string[]): Promise<void>;
  /** Everything nginx wrote to its error log. */
  errorLog(): string;
  stop(): Promise<void>;
}

function findNginx(): string {
  for (const candidate of ["/usr/sbin/nginx", "/usr/bin/nginx"]) {
    if (spawnSync(candidate, ["-v"]).status === 0) return candidate;
  }
  throw new Error("nginx was not found: install the nginx-light (or nginx) package");
}

/**
 * The reference deployment's nginx settings, deploy/nginx.conf (what compose.yaml mounts), with this test's port
 * and instances in place of its own, inside the few lines a foreground nginx of its own prefix needs.
 */
export function nginxConfig(options: { prefix: string; port: number; upstreams: string[] }): string {
  const shipped = readFileSync(path.join(ROOT, "deploy", "nginx.conf"), "utf8");
  const servers = [...shipped.matchAll(/^(\s*)server \S+( .*;)$/gm)];
  const listens = [...shipped.matchAll(/^\s*listen \d+;$/gm)];
  if (servers.length === 0 || listens.length !== 1)
    throw new Error("deploy/nginx.conf: expected upstream `server host:port …;` lines and one `listen <port>;`");
  const [, indent, settings] = servers[0]!;
  const list = options.upstreams.map((address) => `${indent}server ${address}${settings}`).join("\n");
  const site = shipped
    .replace(servers.map((match) => match[0]).join("\n"), list)
    .replace(listens[0]![0], `  listen 127.0.0.1:${options.port};`);
  return `worker_processes 1;
daemon off;
pid ${options.prefix}/nginx.pid;
error_log ${options.prefix}/error.log notice;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${options.prefix}/tmp/body;
  proxy_temp_path ${options.prefix}/tmp/proxy;
  fastcgi_temp_path ${options.prefix}/tmp/fastcgi;
  uwsgi_temp_path ${options.prefix}/tmp/uwsgi;
  scgi_temp_path ${options.prefix}/tmp/scgi;
${site}
}
`;
}

export async function startTestNginx(upstreams: string[]): Promise<TestNginx> {
  const binary = findNginx();
  const prefix = mkdtempSync(path.join(tmpdir(), "gatehouse-nginx-"));
  mkdirSync(path.join(prefix, "tmp"), { recursive: true });
  // Started as root, nginx's workers run as an unprivileged user: they must reach the temporary folders (a
  // request body or an answer too big for memory is buffered there) through the prefix, which mkdtemp made 0700.
  chmodSync(prefix, 0o711);
  const port = await freePort();
  const configFile = path.join(prefix, "nginx.conf");
  const write = (list: string[]) => writeFileSync(configFile, nginxConfig({ prefix, port, upstreams: list }));
  write(upstreams);

  const output: string[] = [];
  const child: ChildProcess = spawn(binary, ["-p", prefix, "-c", configFile], { stdio: ["ignore", "pipe", "pipe"] });
  for (const stream of [child.stdout, child.stderr])
    stream?.on("data", (chunk: Buffer) => output.push(chunk.toString()));
  const killNow = () => child.kill("SIGKILL");
  process.once("exit", killNow);
  const url = `http://127.0.0.1:${port}`;
  const readLog = () => {
    try {
      return readFileSync(path.join(prefix, "error.log"), "utf8");
    } catch {
      return "";
    }
  };

  // Up once the port accepts a request (any answer, even a 502 from instances not started yet).
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited (${child.exitCode}): ${output.join("")}${readLog()}`);
    const up = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(1000) }).then(
      () => true,
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline) throw new Error(`nginx did not answer within 10 s: ${output.join("")}${readLog()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }

  return {
    url,
    async setUpstreams(list) {
      write(list);
      const test = spawnSync(binary, ["-t", "-p", prefix, "-c", configFile], { encoding: "utf8" });
      if (test.status !== 0) throw new Error(`nginx -t refused the configuration: ${test.stderr}`);
      const before = readLog().length;
      child.kill("SIGHUP");
      // The master starts new workers, then tells the old ones to stop accepting and finish: wait for the old
      // worker's line rather than a duration, so that every new connection meets the new list.
      const until = Date.now() + 10_000;
      while (!readLog().slice(before).includes("gracefully shutting down")) {
        if (Date.now() > until) throw new Error("nginx did not reload within 10 s");
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    errorLog: readLog,
    async stop() {
      process.off("exit", killNow);
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGQUIT");
        await exited;
      }
      rmSync(prefix, { recursive: true, force: true });
    },
  };
}
