// The browser tests' servers, started by playwright.config.ts's webServer: the sandbox (both upstream APIs,
// control API on, fresh data) and the built portal (`next start`, honouring NEXT_DIST_DIR) configured against
// it with the sandbox's demo keys, a fresh SQLite store, a session secret and the first admin. SIGTERM/SIGINT
// stop both and remove the temporary files. Needs a build: `npx tsx tests/support/build.ts`.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { SANDBOX_KEYS, startSandbox } from "@/lib/sandbox";

import { ADMIN, PORTAL_PORT, SANDBOX_PORT } from "./settings";

const distDir = process.env.NEXT_DIST_DIR || ".next";
if (!existsSync(path.join(distDir, "BUILD_ID"))) {
  console.error(`No build in ${distDir}: run \`npx tsx tests/support/build.ts\` (with the same NEXT_DIST_DIR) first.`);
  process.exit(1);
}

/** Variables of the portal's configuration, not inherited from the caller's environment: this file states them. */
const OWN_VARIABLES = /^(REPORTS_API_|ITEMS_API_|UPSTREAM_|SANDBOX_|DATABASE_URL$|SESSION_|ADMIN_|PURCHASE_|TRUST_PROXY$|PUBLIC_ORIGIN$)/;

async function main(): Promise<void> {
  const workDir = mkdtempSync(path.join(tmpdir(), "gatehouse-e2e-"));
  const sandbox = await startSandbox({ port: SANDBOX_PORT, control: true, quiet: true, reset: true, dataDir: path.join(workDir, "sandbox") });

  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !OWN_VARIABLES.test(name)));
  const next = spawn(path.join("node_modules", ".bin", "next"), ["start", "-p", String(PORTAL_PORT), "-H", "127.0.0.1"], {
    stdio: ["ignore", "ignore", "inherit"],
    env: {
      ...inherited,
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      REPORTS_API_BASE_URL: sandbox.reportsBaseUrl,
      REPORTS_API_KEY: SANDBOX_KEYS.reports,
      ITEMS_API_BASE_URL: sandbox.itemsBaseUrl,
      ITEMS_API_KEY: SANDBOX_KEYS.items,
      UPSTREAM_TIMEOUT_MS: "5000",
      // Tests reset and fault the sandbox behind the portal's back: a cache would show them stale data, retries
      // would slow the fault tests, and an open breaker would leak one test's fault into the next.
      UPSTREAM_CACHE_REPORTS_TTL_MS: "0",
      UPSTREAM_CACHE_ITEMS_TTL_MS: "0",
      UPSTREAM_RETRIES: "0",
      UPSTREAM_BREAKER_FAILURES: "0",
      PURCHASE_RATE_LIMIT_PER_USER: "1000",
      PURCHASE_RATE_LIMIT_PER_IP: "1000",
      DATABASE_URL: path.join(workDir, "gatehouse.db"),
      SESSION_SECRET: randomBytes(32).toString("base64url"),
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
    },
  });

  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    if (next.exitCode === null && next.signalCode === null) {
      next.kill("SIGTERM");
      await new Promise((resolve) => {
        const timer = setTimeout(() => next.kill("SIGKILL"), 5000);
        next.once("exit", () => resolve(clearTimeout(timer)));
      });
    }
    await sandbox.close();
    rmSync(workDir, { recursive: true, force: true });
    process.exit(code);
  };
  next.once("exit", (code) => {
    if (!stopping) console.error(`next start exited (${code ?? "signal"})`);
    void stop(code ?? 1);
  });
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => void stop(0));
}

void main();
