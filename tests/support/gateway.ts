// Starts the built portal (`next start`) on a free 127.0.0.1 port for an HTTP test file, with the environment the
// test chooses, and captures its output so tests can read the log lines. Needs a build: `npx tsx
// tests/support/build.ts`. Always `await gateway.stop()` in afterAll.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";

import { assertNoCanary, CANARY } from "./canary";
import type { TestSandbox } from "./sandbox";

export interface RecordedResponse {
  method: string;
  path: string;
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface GatewayProcess {
  url: string;
  /** fetch against the gateway; every response is recorded (for the key scan) and returned with its body read. */
  request(pathname: string, init?: RequestInit): Promise<GatewayResponse>;
  /** Everything the server printed, stdout and stderr, line by line. */
  output(): string[];
  /** The structured log lines (JSON objects) printed so far. */
  logLines(): LogLine[];
  /** Waits until the request log line with this id has been printed. */
  logLineFor(requestId: string): Promise<LogLine>;
  /** Throws if a canary key appears in any recorded response (body or header) or any output line. */
  assertNoKeyLeaked(): void;
  stop(): Promise<void>;
}

export interface GatewayResponse {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed JSON body, or undefined when there was none. */
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON
}

export type LogLine = Record<string, unknown> & { msg?: string; request_id?: string };

const NEXT_BIN = path.join("node_modules", ".bin", "next");

/** Environment for a gateway whose areas both point at the sandbox with the canary keys. */
export function sandboxEnv(sandbox: TestSandbox, extra: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  return {
    REPORTS_API_BASE_URL: sandbox.reportsBaseUrl,
    REPORTS_API_KEY: CANARY.reports,
    ITEMS_API_BASE_URL: sandbox.itemsBaseUrl,
    ITEMS_API_KEY: CANARY.items,
    ...extra,
  };
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function assertBuilt(): void {
  if (!existsSync(path.join(process.env.NEXT_DIST_DIR || ".next", "BUILD_ID"))) {
    throw new Error("No build found in .next: run `npx tsx tests/support/build.ts` before the gateway HTTP tests.");
  }
}

/** Variables of the gateway's configuration, removed from the inherited environment so each test states its own. */
const GATEWAY_VARIABLES = [
  "REPORTS_API_BASE_URL",
  "REPORTS_API_KEY",
  "ITEMS_API_BASE_URL",
  "ITEMS_API_KEY",
  "ITEMS_API_KEY_LOCATION",
  "UPSTREAM_TIMEOUT_MS",
  "SANDBOX_PORT",
  "SANDBOX_DATA_DIR",
];

function spawnNext(env: Record<string, string | undefined>, port: number): { child: ChildProcess; lines: string[] } {
  const inherited = { ...process.env };
  for (const name of GATEWAY_VARIABLES) delete inherited[name];
  const child = spawn(NEXT_BIN, ["start", "-p", String(port), "-H", "127.0.0.1"], {
    env: { ...inherited, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const lines: string[] = [];
  for (const stream of [child.stdout, child.stderr]) {
    let pending = "";
    stream?.setEncoding("utf8");
    stream?.on("data", (chunk: string) => {
      pending += chunk;
      const parts = pending.split("\n");
      pending = parts.pop() ?? "";
      lines.push(...parts);
    });
    stream?.on("end", () => {
      if (pending) lines.push(pending);
    });
  }
  return { child, lines };
}

function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once("exit", (code) => resolve(code)));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts `next start` and resolves once /api/health answers. */
export async function startGateway(env: Record<string, string | undefined>): Promise<GatewayProcess> {
  assertBuilt();
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const { child, lines } = spawnNext(env, port);
  const recorded: RecordedResponse[] = [];

  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
    await exited(child);
    clearTimeout(timer);
  };

  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) {
      throw new Error(`next start exited with ${child.exitCode} before it was ready:\n${lines.join("\n")}`);
    }
    try {
      const res = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(2000) });
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`next start was not ready within 60 s:\n${lines.join("\n")}`);
    }
    await sleep(100);
  }

  const logLines = (): LogLine[] =>
    lines.flatMap((line) => {
      if (!line.startsWith("{")) return [];
      try {
        return [JSON.parse(line) as LogLine];
      } catch {
        return [];
      }
    });

  return {
    url,
    async request(pathname, init) {
      const res = await fetch(url + pathname, { redirect: "manual", ...init });
      const text = await res.text();
      recorded.push({
        method: init?.method ?? "GET",
        path: pathname,
        status: res.status,
        headers: Object.fromEntries(res.headers),
        body: text,
      });
      let json: unknown;
      try {
        json = text === "" ? undefined : JSON.parse(text);
      } catch {
        json = undefined;
      }
      return { status: res.status, headers: res.headers, text, json };
    },
    output: () => [...lines],
    logLines,
    async logLineFor(requestId) {
      for (let i = 0; i < 50; i++) {
        const line = logLines().find((l) => l.request_id === requestId && l.msg === "request");
        if (line) return line;
        await sleep(20);
      }
      throw new Error(`no log line for request ${requestId}`);
    },
    assertNoKeyLeaked() {
      for (const r of recorded) {
        assertNoCanary(r.body, `the body of ${r.method} ${r.path} (${r.status})`);
        assertNoCanary(JSON.stringify(r.headers), `the headers of ${r.method} ${r.path} (${r.status})`);
      }
      lines.forEach((line, i) => assertNoCanary(line, `output line ${i + 1} of the gateway`));
    },
    stop,
  };
}

/** Starts `next start` expecting it to refuse to start; resolves with its exit code and output. */
export async function startGatewayExpectingFailure(env: Record<string, string | undefined>): Promise<{ code: number | null; output: string[] }> {
  assertBuilt();
  const { child, lines } = spawnNext(env, await freePort());
  const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
  const code = await exited(child);
  clearTimeout(timer);
  await sleep(50); // let the streams flush their last lines
  return { code, output: lines };
}
