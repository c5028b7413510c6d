// Browser tests (tests/e2e) in Debian's Chromium — never `playwright install`: the config launches
// /usr/bin/chromium, or CHROMIUM_PATH. The servers (sandbox with its control API + the built portal) start
// through tests/support/e2e/serve.ts, one pair per worker; build first with `npx tsx tests/support/build.ts` (npm
// test does).
import { defineConfig } from "@playwright/test";

import { E2E_WORKERS, PORTAL_URL, serversOf } from "./tests/support/e2e/settings";

const CI = Boolean(process.env.CI);

export default defineConfig({
  testDir: "tests/e2e",
  outputDir: "test-results",
  // Each worker runs on a portal, sandbox and store of its own (tests/support/e2e/settings.ts), so tests that change
  // data and reset the sandbox never step on another worker's. A file's tests run in order on one worker, but for
  // the layout walk's, which spread over all (its file says so).
  workers: E2E_WORKERS,
  fullyParallel: false,
  forbidOnly: CI,
  retries: CI ? 1 : 0,
  timeout: 45_000,
  expect: { timeout: 10_000 },
  reporter: [["list"]],
  globalSetup: "./tests/e2e/global-setup.ts",
  use: {
    // This worker's portal: the config is loaded again in each worker, where settings.ts reads its index.
    baseURL: PORTAL_URL,
    trace: "on-first-retry",
    screenshot: "only-on-failure",
    locale: "en-GB",
    timezoneId: "Europe/Berlin",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    },
  },
  projects: [{ name: "chromium", use: { browserName: "chromium", viewport: { width: 1280, height: 900 } } }],
  webServer: Array.from({ length: E2E_WORKERS }, (_, index) => ({
    command: `npx tsx tests/support/e2e/serve.ts ${index}`,
    url: `${serversOf(index).portalUrl}/api/health`,
    timeout: 90_000,
    reuseExistingServer: false,
    stdout: "ignore" as const,
    stderr: "pipe" as const,
    gracefulShutdown: { signal: "SIGTERM" as const, timeout: 10_000 },
  })),
});
