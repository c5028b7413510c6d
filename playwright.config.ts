// Browser tests (tests/e2e) in Debian's Chromium — never `playwright install`: the config launches
// /usr/bin/chromium, or CHROMIUM_PATH. The servers (sandbox with its control API + the built portal) start
// through tests/support/e2e/serve.ts; build first with `npx tsx tests/support/build.ts` (npm test does).
import { defineConfig } from "@playwright/test";

import { PORTAL_URL } from "./tests/support/e2e/settings";

const CI = Boolean(process.env.CI);

export default defineConfig({
  testDir: "tests/e2e",
  outputDir: "test-results",
  // Tests change shared sandbox data and reset it; two workers would step on each other (and the machine has two cores).
  workers: 1,
  fullyParallel: false,
  forbidOnly: CI,
  retries: CI ? 1 : 0,
  timeout: 45_000,
  expect: { timeout: 10_000 },
  reporter: [["list"]],
  globalSetup: "./tests/e2e/global-setup.ts",
  use: {
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
  webServer: {
    command: "npx tsx tests/support/e2e/serve.ts",
    url: `${PORTAL_URL}/api/health`,
    timeout: 90_000,
    reuseExistingServer: false,
    stdout: "ignore",
    stderr: "pipe",
    gracefulShutdown: { signal: "SIGTERM", timeout: 10_000 },
  },
});
