// The README's pictures, made from the demo so they show what a newcomer gets: `npm run screenshots`. Builds when
// the build is stale (as `npm run demo` does), starts the demo server on a free port with a fresh temporary
// DEMO_DATA_DIR, signs in as the demo admin in Debian's Chromium (CHROMIUM_PATH, default /usr/bin/chromium), and
// writes docs/images/{dashboard,reports,purchase-check}.png. Run it after a change to those pages, and commit the
// pictures.
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { chromium, type Page } from "@playwright/test";

import { buildReason } from "@/lib/cli/build-check";
import { NEXT_BIN, ROOT } from "@/lib/cli/serve";
import { DEMO_PASSWORD } from "@/lib/auth/users";
import { FIXED_PURCHASE_CODES } from "@/lib/sandbox";
import { freePort } from "@/tests/support/processes";

const OUT = path.join(ROOT, "docs", "images");

async function untilUp(url: string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (await fetch(`${url}/api/health`).then((r) => r.ok, () => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("the demo did not start within 60 s");
}

async function shoot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(OUT, `${name}.png`), fullPage: false });
  console.log(`screenshots: docs/images/${name}.png`);
}

async function main(): Promise<void> {
  const reason = buildReason();
  if (reason) {
    console.log(`screenshots: building the portal (${reason})…`);
    const build = spawnSync(NEXT_BIN, ["build", ROOT], { stdio: "inherit", env: { ...process.env, NODE_ENV: "production" } });
    if (build.status !== 0) process.exit(build.status ?? 1);
  }
  mkdirSync(OUT, { recursive: true });
  const dataDir = mkdtempSync(path.join(tmpdir(), "gatehouse-screenshots-"));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const server = spawn(NEXT_BIN, ["start", ROOT, "-H", "127.0.0.1", "-p", String(port)], {
    stdio: "ignore",
    env: { ...process.env, NODE_ENV: "production", GATEHOUSE_DEMO: "1", DEMO_DATA_DIR: dataDir, SANDBOX_PORT: "0" },
  });
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: ["--no-sandbox"] });
  try {
    await untilUp(url);
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, locale: "en-GB", timezoneId: "UTC", colorScheme: "light" });
    await page.goto(`${url}/login`);
    await page.getByLabel("Email").fill("admin@demo.test");
    await page.getByLabel("Password").fill(DEMO_PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("heading", { level: 1, name: "Dashboard" }).waitFor();
    await page.waitForLoadState("networkidle");
    await shoot(page, "dashboard");

    await page.goto(`${url}/reports`);
    await page.getByRole("table").waitFor();
    await shoot(page, "reports");

    await page.goto(`${url}/purchases`);
    await page.getByLabel(/Purchase code/).fill(FIXED_PURCHASE_CODES.active);
    await page.getByRole("button", { name: "Check code" }).click();
    await page.getByRole("heading", { name: /This purchase code is valid/ }).waitFor();
    await page.getByRole("img", { name: /^Preview of / }).waitFor();
    await page.waitForLoadState("networkidle");
    await shoot(page, "purchase-check");
  } finally {
    await browser.close();
    server.kill("SIGTERM");
    await new Promise((resolve) => server.once("exit", resolve));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(`screenshots: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
