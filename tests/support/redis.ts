// A throwaway Redis for tests: Debian's redis-server on a free 127.0.0.1 port, no persistence, its own folder.
// kill() is a crash (SIGKILL); start() again brings it back on the same port, empty, as a restarted Redis
// without persistence would be. TEST_REDIS_URL points the tests at an existing server instead (never stopped).
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

import { freePort } from "./processes";

export interface TestRedis {
  url: string;
  port: number;
  /** Starts the server (again) on the same port; resolves once it answers PING. */
  start(): Promise<void>;
  /** SIGKILL: a crash, with no chance to close connections. */
  kill(): Promise<void>;
  /** Stops the server for good and removes its folder. */
  stop(): Promise<void>;
}

function findRedisServer(): string {
  const which = spawnSync("sh", ["-c", "command -v redis-server"], { encoding: "utf8" });
  if (which.status === 0 && which.stdout.trim()) return which.stdout.trim();
  throw new Error(
    "redis-server was not found: install the redis-server package, or set TEST_REDIS_URL to a server the tests may use",
  );
}

/** Sends PING over a raw connection; true when the answer is +PONG. */
function ping(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once("error", () => done(false));
    socket.once("connect", () => socket.write("PING\r\n"));
    socket.once("data", (data) => done(data.toString().startsWith("+PONG")));
  });
}

async function waitUntil(condition: () => Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`${what} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export async function startTestRedis(): Promise<TestRedis> {
  const existing = process.env.TEST_REDIS_URL;
  if (existing) {
    const port = Number(new URL(existing).port || 6379);
    const noop = async () => {};
    return { url: existing, port, start: noop, kill: noop, stop: noop };
  }
  const binary = findRedisServer();
  const dir = mkdtempSync(path.join(tmpdir(), "gatehouse-redis-"));
  const port = await freePort();
  let child: ChildProcess | null = null;
  let output = "";

  const exited = (process: ChildProcess) =>
    process.exitCode !== null || process.signalCode !== null
      ? Promise.resolve()
      : new Promise<void>((resolve) => process.once("exit", () => resolve()));

  const killNow = () => child?.kill("SIGKILL");
  process.once("exit", killNow);

  const redis: TestRedis = {
    url: `redis://127.0.0.1:${port}`,
    port,
    async start() {
      if (child && child.exitCode === null && child.signalCode === null) return;
      output = "";
      child = spawn(
        binary,
        [
          "--port",
          String(port),
          "--bind",
          "127.0.0.1",
          "--save",
          "",
          "--appendonly",
          "no",
          "--dir",
          dir,
          "--protected-mode",
          "no",
        ],
        { stdio: ["ignore", "pipe", "pipe"] },
      );
      for (const stream of [child.stdout, child.stderr])
        stream?.on("data", (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
      const started = child;
      await waitUntil(async () => {
        if (started.exitCode !== null) throw new Error(`redis-server exited (${started.exitCode}):\n${output}`);
        return ping(port);
      }, "redis-server did not answer PING");
    },
    async kill() {
      if (!child) return;
      const killed = child;
      killed.kill("SIGKILL");
      await exited(killed);
      child = null;
    },
    async stop() {
      if (child) {
        const stopping = child;
        stopping.kill("SIGTERM");
        await exited(stopping);
        child = null;
      }
      process.off("exit", killNow);
      rmSync(dir, { recursive: true, force: true });
    },
  };
  await redis.start();
  return redis;
}
