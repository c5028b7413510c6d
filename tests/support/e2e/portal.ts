// Starts what the browser tests and the budgets script run against: the sandbox (both upstream APIs, control
// API on, fresh data) and the built portal (`next start`, honouring NEXT_DIST_DIR) configured against it with
// the sandbox's demo keys, a fresh SQLite store, a session secret and the first admin (ADMIN).
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { serverArguments } from "@/lib/cli/serve";
import { SANDBOX_KEYS, startSandbox, type Sandbox } from "@/lib/sandbox";

import { assertBuilt, commandEnv } from "../processes";
import { ADMIN } from "./settings";

export interface RunningPortal {
  url: string;
  sandbox: Sandbox;
  stop(): Promise<void>;
  /** Resolves with next's exit code if it ends by itself. */
  exited: Promise<number | null>;
}

export interface PortalOptions {
  port: number;
  sandboxPort: number;
  quiet?: boolean;
  /** Settings over the defaults below, for a test that starts a portal of its own (e.g. a short UPSTREAM_TIMEOUT_MS). */
  env?: Record<string, string>;
}

export async function startPortal({
  port,
  sandboxPort,
  quiet = true,
  env = {},
}: PortalOptions): Promise<RunningPortal> {
  assertBuilt();
  const workDir = mkdtempSync(path.join(tmpdir(), "gatehouse-e2e-"));
  const sandbox = await startSandbox({
    port: sandboxPort,
    control: true,
    quiet: true,
    reset: true,
    dataDir: path.join(workDir, "sandbox"),
  });

  // The portal's settings are this file's: none of Gatehouse's variables is inherited from the caller (commandEnv).
  const next = spawn(process.execPath, serverArguments("127.0.0.1", String(port)), {
    stdio: ["ignore", "ignore", quiet ? "ignore" : "inherit"],
    env: commandEnv({
      REPORTS_API_BASE_URL: sandbox.reportsBaseUrl,
      REPORTS_API_KEY: SANDBOX_KEYS.reports,
      ITEMS_API_BASE_URL: sandbox.itemsBaseUrl,
      ITEMS_API_KEY: SANDBOX_KEYS.items,
      UPSTREAM_TIMEOUT_MS: "5000",
      // Tests reset and fault the sandbox behind the portal's back: a cache would show them stale data, retries
      // would slow the fault tests, and an open breaker would leak one test's fault into the next. The budgets
      // measure a render that really calls the upstream, which a cache would skip.
      UPSTREAM_CACHE_REPORTS_TTL_MS: "0",
      UPSTREAM_CACHE_ITEMS_TTL_MS: "0",
      UPSTREAM_RETRIES: "0",
      UPSTREAM_BREAKER_FAILURES: "0",
      // A spec's API calls reuse a connection after seconds in the browser: with Node's 5 s the portal could close it
      // as a call went out on it (ECONNRESET once in a two-worker run). Behind a proxy an operator sets the same.
      HTTP_KEEP_ALIVE_TIMEOUT_MS: "65000",
      PURCHASE_RATE_LIMIT_PER_USER: "1000",
      PURCHASE_RATE_LIMIT_PER_IP: "1000",
      // Browser tests send several bulk batches per user; the allowance itself is tested in tests/http/api/purchases/bulk.allowance.test.ts.
      PURCHASE_BULK_LIMIT_PER_HOUR: "100000",
      // The webhooks page's test sends to a receiver it starts on 127.0.0.1 over http.
      WEBHOOK_ALLOW_PRIVATE: "1",
      // A project's regeneration may spend a whole large budget, so that a run ends while the test watches.
      REPORTS_API_CALLS_PER_MINUTE: "60000",
      REPORT_SCHEDULE_MAX_SHARE: "1",
      DATABASE_URL: path.join(workDir, "gatehouse.db"),
      SESSION_SECRET: randomBytes(32).toString("base64url"),
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      ...env,
    }),
  });
  const exited = new Promise<number | null>((resolve) => next.once("exit", (code) => resolve(code)));

  let stopped: Promise<void> | undefined;
  const stop = () => {
    stopped ??= (async () => {
      if (next.exitCode === null && next.signalCode === null) {
        next.kill("SIGTERM");
        const timer = setTimeout(() => next.kill("SIGKILL"), 5000);
        await exited;
        clearTimeout(timer);
      }
      await sandbox.close();
      rmSync(workDir, { recursive: true, force: true });
    })();
    return stopped;
  };
  return { url: `http://127.0.0.1:${port}`, sandbox, stop, exited };
}

/** Waits until the portal answers /api/health (or throws after `timeoutMs`). */
export async function waitUntilReady(portal: RunningPortal, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let ended = false;
  void portal.exited.then(() => (ended = true));
  while (Date.now() < deadline) {
    if (ended) throw new Error("next start exited before it was ready");
    try {
      if ((await fetch(`${portal.url}/api/health`, { signal: AbortSignal.timeout(2000) })).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the portal was not ready within ${timeoutMs / 1000} s`);
}
