// The portal's own commands as a user runs them, in a working directory the test chooses: `npm start` (its
// package.json script, lib/cli/start.mjs), the server `npm run demo` starts (next start with GATEHOUSE_DEMO=1),
// and the users CLI. Output is kept per stream, so tests read what really went to stdout and stderr. Needs a
// build (`npx tsx tests/support/build.ts`).
import { spawn, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

import { serverArguments } from "@/lib/cli/serve";
import { VARIABLE_NAMES } from "@/lib/config/variables";

export const ROOT = path.resolve(__dirname, "../..");
const BIN = path.join(ROOT, "node_modules", ".bin");

export interface Spawned {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Every line of both streams, in arrival order per stream. */
  lines(): string[];
  /** The JSON log lines of stdout. */
  logLines(): Array<Record<string, unknown>>;
  exited: Promise<number | null>;
  /** SIGTERM, then SIGKILL after 5 s; resolves when the process has ended. */
  stop(): Promise<void>;
}

/**
 * The environment of a command: the test's own, without any of Gatehouse's variables (each test states its
 * own), in production mode. NEXT_DIST_DIR stays, so a second build can be used.
 */
export function commandEnv(env: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const inherited: NodeJS.ProcessEnv = { ...process.env };
  for (const name of VARIABLE_NAMES) if (name !== "NEXT_DIST_DIR") delete inherited[name];
  const merged: NodeJS.ProcessEnv = { ...inherited, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" };
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) delete merged[name];
    else merged[name] = value;
  }
  return merged;
}

/**
 * The environment that puts `values` into a server's process-wide state (lib/process-wide.ts) before any of its
 * code runs: how a test injects what production never varies, e.g. `{ "webhook-timings": { speedup: 1000 } }`.
 * Node preloads a small module (NODE_OPTIONS), written once per distinct set of values to the temporary folder.
 */
export function injectIntoServer(values: Record<string, unknown>): { NODE_OPTIONS: string } {
  const source = `for (const [name, value] of Object.entries(${JSON.stringify(values)}))\n  globalThis[Symbol.for(\`gatehouse.\${name}\`)] = value;\n`;
  const file = path.join(
    tmpdir(),
    `gatehouse-inject-${createHash("sha256").update(source).digest("hex").slice(0, 16)}.mjs`,
  );
  if (!existsSync(file)) writeFileSync(file, source);
  return { NODE_OPTIONS: `--import=${file}` };
}

export function spawnCommand(
  command: string,
  args: string[],
  options: { cwd: string; env: Record<string, string | undefined> },
): Spawned {
  // tsx finds tsconfig.json (and so the "@/" paths) in the working directory, which npm sets to the project's;
  // from another directory it is named.
  const env = { TSX_TSCONFIG_PATH: path.join(ROOT, "tsconfig.json"), ...options.env };
  const child = spawn(command, args, { cwd: options.cwd, env: commandEnv(env), stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => (err += chunk));
  const exited = new Promise<number | null>((resolve) => child.once("close", (code) => resolve(code)));
  const split = (text: string) => text.split("\n").filter((line) => line !== "");
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    lines: () => [...split(out), ...split(err)],
    logLines: () =>
      split(out).flatMap((line) => {
        if (!line.startsWith("{")) return [];
        try {
          return [JSON.parse(line) as Record<string, unknown>];
        } catch {
          return [];
        }
      }),
    exited,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGTERM");
        const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
        await exited;
        clearTimeout(timer);
      }
    },
  };
}

/** `npm start`, exactly as package.json's script says, run from `cwd` (without npm and its shell in front). */
export function npmStart(cwd: string, env: Record<string, string | undefined>): Spawned {
  const script = (
    JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> }
  ).scripts.start!;
  const [tool, ...args] = script.split(" ");
  const command = tool === "node" ? process.execPath : path.join(BIN, tool!);
  return spawnCommand(
    command,
    args.map((arg) => (/\.m?[jt]s$/.test(arg) ? path.join(ROOT, arg) : arg)),
    { cwd, env },
  );
}

/** The server `npm run demo` starts (lib/cli/demo.ts, after its build check): next start with GATEHOUSE_DEMO=1. */
export function demoServer(cwd: string, port: number, env: Record<string, string | undefined> = {}): Spawned {
  return productionServer(cwd, port, { ...env, GATEHOUSE_DEMO: "1" });
}

/** `next start` run directly (no npm start in front): the server's own start-up check. */
export function nextStart(cwd: string, port: number, env: Record<string, string | undefined>): Spawned {
  return productionServer(cwd, port, env);
}

/** The production server as lib/cli/serve.ts starts it: the build's standalone output, with the preload first. */
function productionServer(cwd: string, port: number, env: Record<string, string | undefined>): Spawned {
  return spawnCommand(process.execPath, serverArguments("127.0.0.1", String(port)), { cwd, env });
}

/** `npm run users -- …` against the store `env` names. */
export function usersCli(cwd: string, args: string[], env: Record<string, string | undefined>): Spawned {
  return spawnCommand(
    path.join(BIN, "tsx"),
    ["--conditions=react-server", path.join(ROOT, "lib/cli/users.ts"), ...args],
    { cwd, env },
  );
}

/** A port nothing listens on now, on 127.0.0.1, for a server the test starts. */
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

export function assertBuilt(): void {
  if (!existsSync(path.join(ROOT, process.env.NEXT_DIST_DIR || ".next", "BUILD_ID"))) {
    throw new Error("No build: run `npx tsx tests/support/build.ts` first.");
  }
}

/** Resolves once `url`/api/health answers 200; rejects if the process ends first or after 60 s. */
export async function untilHealthy(url: string, spawned: Spawned): Promise<void> {
  let ended = false;
  void spawned.exited.then(() => (ended = true));
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (ended) throw new Error(`the server ended before it was ready:\n${spawned.lines().join("\n")}`);
    const ok = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(2000) }).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`not ready within 60 s:\n${spawned.lines().join("\n")}`);
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * An HTTP request with headers fetch() will not send as given (Host, Origin): what a browser sends for a page on
 * another name, or a hostile client.
 */
export function rawRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: options.method ?? "GET", headers: options.headers }, (res) => {
      let body = "";
      res.setEncoding("utf8").on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on("error", reject);
    req.end(options.body);
  });
}

/** The session cookie a response sets, as `name=value`, or undefined. */
export function sessionCookie(response: RawResponse | Response): string | undefined {
  const lines =
    response instanceof Response ? response.headers.getSetCookie() : [response.headers["set-cookie"] ?? []].flat();
  const line = lines.find((cookie) => /^(__Host-)?gatehouse_session=[^;]/.test(cookie));
  return line?.split(";", 1)[0];
}
