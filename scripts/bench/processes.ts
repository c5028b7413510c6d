// The processes `npm run bench` and `npm run bench:guard` measure: the sandbox (a process of its own, so that it
// does not share an event loop with the load generator), the built portal (`next start`, signed in as its first
// admin), and what /proc says of them (CPU time, resident memory).
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { closeSync, openSync, readdirSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

import { ROOT, serverArguments } from "@/lib/cli/serve";
import { SANDBOX_KEYS } from "@/lib/sandbox";
import { freePort } from "@/tests/support/processes";

const TSX_BIN = path.join(ROOT, "node_modules", ".bin", "tsx");

export const say = (text: string) => process.stderr.write(`${text}\n`);

/** Runs tsx in the repository's folder (`args`: its options, the script and the script's), output to the terminal. */
export function runTsx(args: string[]): number {
  const result = spawnSync(TSX_BIN, args, { cwd: ROOT, stdio: "inherit" });
  return result.status ?? 1;
}

/**
 * The portal's production build in NEXT_DIST_DIR (default .next): the tests' build (tests/support/build.ts), made
 * only when missing or stale — so the bench, the guard and `npm test` share one build and never make a second.
 */
export function ensurePortalBuild(force = false): void {
  if (runTsx(["tests/support/build.ts", ...(force ? [] : ["--if-stale"])]) !== 0)
    throw new Error("building the portal failed");
}

export function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

export interface SandboxProcess {
  url: string;
  reportsBaseUrl: string;
  itemsBaseUrl: string;
  stop(): Promise<void>;
}

export async function startSandboxProcess(): Promise<SandboxProcess> {
  const child = spawn(TSX_BIN, [path.join(ROOT, "scripts", "bench", "sandbox-server.ts")], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "inherit"],
  });
  const firstLine = await new Promise<string>((resolve, reject) => {
    let buffered = "";
    child.stdout?.setEncoding("utf8");
    child.stdout?.on("data", (chunk: string) => {
      buffered += chunk;
      const end = buffered.indexOf("\n");
      if (end >= 0) resolve(buffered.slice(0, end));
    });
    child.once("exit", (code) => reject(new Error(`the sandbox exited with ${code} before it listened`)));
  });
  child.stdout?.resume();
  const info = JSON.parse(firstLine) as { url: string; reportsBaseUrl: string; itemsBaseUrl: string };
  return { ...info, stop: () => stopChild(child) };
}

export interface Portal {
  url: string;
  /** The `next start` process. */
  pid: number;
  /** The session cookie of the signed-in admin; undefined when this build has no accounts yet. */
  cookie: string | undefined;
  /** Its store (a SQLite file in a temporary folder unless extraEnv gave DATABASE_URL). */
  databaseUrl: string;
  stop(): Promise<void>;
}

/** The session cookie as request headers (none for a build without sign-in). */
export const sessionHeaders = (portal: Portal): Record<string, string> =>
  portal.cookie ? { Cookie: portal.cookie } : {};

/** The built portal on 127.0.0.1 at a free port, against the sandbox, with a fresh store; signed in as its admin. */
export async function startPortal(
  sandbox: SandboxProcess,
  extraEnv: Record<string, string>,
  label: string,
): Promise<Portal> {
  const port = await freePort();
  const storeDir = await mkdtemp(path.join(tmpdir(), "gatehouse-bench-store-"));
  const admin = { email: "bench@gatehouse.test", password: randomBytes(18).toString("base64url") };
  // The portal's log lines go to a file: reading them here would cost the load generator CPU.
  const logFile = path.join(storeDir, "portal.log");
  const logFd = openSync(logFile, "w");
  const databaseUrl = extraEnv.DATABASE_URL ?? path.join(storeDir, "gatehouse.db");
  const child = spawn(process.execPath, serverArguments("127.0.0.1", String(port)), {
    cwd: ROOT,
    stdio: ["ignore", logFd, logFd],
    env: {
      ...process.env,
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      REPORTS_API_BASE_URL: sandbox.reportsBaseUrl,
      REPORTS_API_KEY: SANDBOX_KEYS.reports,
      ITEMS_API_BASE_URL: sandbox.itemsBaseUrl,
      ITEMS_API_KEY: SANDBOX_KEYS.items,
      SESSION_SECRET: randomBytes(36).toString("base64url"),
      ADMIN_EMAIL: admin.email,
      ADMIN_PASSWORD: admin.password,
      ...extraEnv,
      DATABASE_URL: databaseUrl,
    },
  });
  closeSync(logFd);
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    await stopChild(child);
    await rm(storeDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`next start (${label}) exited with ${child.exitCode}:\n${readFileSync(logFile, "utf8")}`);
    const up = await fetch(`${url}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`next start (${label}) was not ready within 60 s`);
    }
    await sleep(100);
  }
  const cookie = await signIn(url, admin);
  return { url, pid: child.pid!, cookie, databaseUrl, stop };
}

/** Signs the admin in; a build from before the accounts work has no login route and needs no session. */
async function signIn(url: string, credentials: { email: string; password: string }): Promise<string | undefined> {
  const res = await fetch(`${url}/api/auth/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-CSRF": "1" },
    body: JSON.stringify(credentials),
  });
  if (res.status === 404) return undefined;
  if (res.status !== 200) throw new Error(`signing in failed: ${res.status} ${await res.text()}`);
  const cookie = res.headers.getSetCookie()[0]?.split(";", 1)[0];
  if (!cookie) throw new Error("signing in set no cookie");
  return cookie;
}

// ---------------------------------------------------------------------------------------------------------
// /proc

/** Clock ticks per second, the unit of /proc/<pid>/stat's CPU times (`getconf CLK_TCK`; 100 on Linux). */
export const CLOCK_TICKS_PER_SECOND =
  Number(spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).stdout.trim()) || 100;

/** /proc/<pid>/stat's fields from the state on (field 3): the name before it, in parentheses, may hold spaces. */
function statFields(pid: number): string[] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  } catch {
    return null; // the process has ended
  }
}

/**
 * The process and every live descendant. `next start` serves from the one process today (ps --ppid lists no
 * child), but a server that forks workers would otherwise look cheaper than it is.
 */
function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const ppid = Number(statFields(Number(entry))?.[1]);
    if (Number.isInteger(ppid)) children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
  }
  const tree: number[] = [];
  const visit = (pid: number) => {
    tree.push(pid);
    for (const child of children.get(pid) ?? []) visit(child);
  };
  visit(root);
  return tree;
}

/**
 * CPU time the process has used, user and system, with its descendants' (live ones, and those it has waited for:
 * cutime and cstime), in clock ticks. fields[11..14] are /proc/<pid>/stat's fields 14–17.
 */
export function cpuTicks(pid: number): number {
  let ticks = 0;
  for (const member of processTree(pid)) {
    const fields = statFields(member);
    if (fields) ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
  }
  return ticks;
}

/** Resident memory of the process and its descendants, in MB (VmRSS of /proc/<pid>/status). */
export function residentMemoryMb(pid: number): number {
  let kb = 0;
  for (const member of processTree(pid)) {
    try {
      kb += Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${member}/status`, "utf8"))?.[1] ?? 0);
    } catch {
      // ended in between
    }
  }
  return kb / 1024;
}
