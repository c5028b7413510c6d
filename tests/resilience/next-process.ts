// A `next start` child this test controls itself: it sends the signals and reads the exit code, which
// tests/support/gateway.ts keeps to itself. Needs a build (`npx tsx tests/support/build.ts`).
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { freePort } from "../support/gateway";

export interface NextProcess {
  url: string;
  child: ChildProcess;
  output(): string[];
  /** Resolves with the exit code (null when killed by a signal). */
  exited: Promise<number | null>;
  /** SIGKILL if still running: for afterAll. */
  kill(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Accounts settings every non-demo gateway needs to start: a session secret, a first admin, a store of its own. */
function accountsEnv(storeDir: string): Record<string, string> {
  return {
    SESSION_SECRET: "resilience-test-session-secret-0123456789",
    ADMIN_EMAIL: "admin@resilience.test",
    ADMIN_PASSWORD: "resilience admin password",
    DATABASE_URL: path.join(storeDir, "gatehouse.db"),
  };
}

export async function startNext(env: Record<string, string>): Promise<NextProcess> {
  const distDir = process.env.NEXT_DIST_DIR || ".next";
  if (!existsSync(path.join(distDir, "BUILD_ID"))) throw new Error(`No build in ${distDir}: run \`npx tsx tests/support/build.ts\` first.`);
  const port = await freePort();
  const storeDir = await mkdtemp(path.join(tmpdir(), "gatehouse-resilience-"));
  const child = spawn(path.join("node_modules", ".bin", "next"), ["start", "-p", String(port), "-H", "127.0.0.1"], {
    env: { ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1", ...accountsEnv(storeDir), ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const lines: string[] = [];
  for (const stream of [child.stdout, child.stderr]) {
    stream?.setEncoding("utf8");
    stream?.on("data", (chunk: string) => lines.push(...chunk.split("\n").filter(Boolean)));
  }
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code))).then(async (code) => {
    await rm(storeDir, { recursive: true, force: true });
    return code;
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`next start exited early:\n${lines.join("\n")}`);
    // Up means the app answers: a 500 here (a configuration it refuses) would never turn into a 200.
    const up = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(2000) }).then((r) => r.ok, () => false);
    if (up) break;
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`next start was not ready within 60 s:\n${lines.join("\n")}`);
    }
    await sleep(100);
  }
  return {
    url,
    child,
    output: () => [...lines],
    exited,
    async kill() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGKILL");
        await exited;
      }
    },
  };
}
