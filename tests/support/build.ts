// Builds the app for the HTTP tests: `next build` with the canary keys (and dummy base URLs) in the
// environment, so that a key inlined into client code at build time would be caught by the .next/static scan.
// Run: `npx tsx tests/support/build.ts` (npm test runs it before vitest).
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";

import { CANARY, CANARY_BUILD_MARKER } from "./canary";

function main(): void {
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
  const result = spawnSync(path.join("node_modules", ".bin", "next"), ["build"], { env, stdio: "inherit" });
  if (result.status !== 0) {
    console.error(`next build failed (exit ${result.status ?? result.signal})`);
    process.exit(result.status ?? 1);
  }
  // Tells the key-scan test that this build saw the canary keys (a demo build would prove nothing).
  writeFileSync(CANARY_BUILD_MARKER, JSON.stringify({ builtAt: new Date().toISOString(), canaries: true }));
  console.log(`Test build ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

main();
