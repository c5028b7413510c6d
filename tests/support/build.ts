// Builds the app for the HTTP and browser tests: `next build` with the canary keys (and dummy base URLs) in the
// environment, so that a key inlined into client code at build time would be caught by the .next/static scan.
// Run: `npx tsx tests/support/build.ts` (always builds), or with --if-stale (npm run test:unit, npm test): only
// when the build is missing, older than a source file (lib/cli/build-check.ts), or was not made by this script.
import { spawnSync } from "node:child_process";
import { existsSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";

import { buildReason } from "@/lib/cli/build-check";

import { CANARY, CANARY_BUILD_MARKER } from "./canary";

/** Why the test build must be made again, or null when the one there will do. */
function staleReason(): string | null {
  const reason = buildReason();
  if (reason) return reason;
  const buildId = path.join(process.env.NEXT_DIST_DIR || ".next", "BUILD_ID");
  // A build made since (npm run demo, npm run build) did not see the canary keys.
  if (!existsSync(CANARY_BUILD_MARKER) || statSync(CANARY_BUILD_MARKER).mtimeMs < statSync(buildId).mtimeMs)
    return "the build was not made with the test keys";
  return null;
}

function main(): void {
  if (process.argv.includes("--if-stale")) {
    const reason = staleReason();
    if (reason === null) {
      console.log("Test build is up to date (no source changed since it was made).");
      return;
    }
    console.log(`Test build: building (${reason})…`);
  }
  const started = Date.now();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    REPORTS_API_BASE_URL: "http://127.0.0.1:9/seo",
    REPORTS_API_KEY: CANARY.reports,
    ITEMS_API_BASE_URL: "http://127.0.0.1:9/market",
    ITEMS_API_KEY: CANARY.items,
  };
  const result = spawnSync(process.execPath, [path.join("lib", "cli", "build.mjs")], { env, stdio: "inherit" });
  if (result.status !== 0) {
    console.error(`the build failed (exit ${result.status ?? result.signal})`);
    process.exit(result.status ?? 1);
  }
  // Tells the key-scan test (and --if-stale) that this build saw the canary keys (a demo build would prove nothing).
  writeFileSync(CANARY_BUILD_MARKER, JSON.stringify({ builtAt: new Date().toISOString(), canaries: true }));
  console.log(`Test build ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

main();
