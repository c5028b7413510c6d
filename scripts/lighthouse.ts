// `npm run lighthouse`: every page of the portal audited by Lighthouse (the `lighthouse` package) at mobile and
// desktop — performance, accessibility, best practices — in Debian's Chromium (CHROMIUM_PATH, default
// /usr/bin/chromium). Prints one table of scores and exits 1 when any score is below 95, with a line per
// failing page and category naming the audit that cost it the most. A performance score below 95 that only the
// machine's CPU cost (Total Blocking Time) is judged against the framework floor, a bare Next.js page
// (scripts/framework-floor, started by ./framework-floor.ts) audited in the same run: see FLOOR_TBT_RATIO in
// ./lighthouse-scores.ts.
//
// What it runs against is what a newcomer gets: the production build (built here when stale, as `npm run demo`
// does) started as the demo on a free port with a fresh temporary DEMO_DATA_DIR — made-up data, a user per role.
// One Chromium serves every run: Playwright launches it with a DevTools port; puppeteer-core (Lighthouse's own
// driver), connected once, opens a tab per run in which the demo's made-up CDN answers (tabWithCdn), and
// Lighthouse audits it with the role's session cookie as an extra header.
//
// Writes, under artifacts/lighthouse/ (ignored by git, kept by CI): <page>-<form factor>.report.{json,html}
// and the screenshot Lighthouse took of the loaded page, <page>-<form factor>.jpg.
//
// Options: --pictures also writes the pictures of the README, docs/helpdesk.md and docs/notifications.md
// (docs/images/*.png; the notifications' from scripts/notification-pictures.ts) from the same
// demo and browser; --pictures-only writes them without auditing (`npm run screenshots`); --page <text> audits only
// the pages whose name or path contains the text; --form-factor mobile (or desktop) audits at that one only (npm
// test: mobile).
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";

import { chromium, type Browser } from "@playwright/test";
import puppeteer, { type Browser as PuppeteerBrowser, type Page } from "puppeteer-core";

import { buildReason } from "@/lib/cli/build-check";
import { BUILD, ROOT, serverArguments } from "@/lib/cli/serve";
import { DEMO_PASSWORD } from "@/lib/auth/users";
import type { Role } from "@/lib/contract/values";
import { FIXED_PURCHASE_CODES } from "@/lib/sandbox";
import { openHelpdeskApp, SAMPLE_TICKET } from "@/tests/support/e2e/helpdesk";
import { BULK_CODES, PORTAL_PAGES, pathOf, type PortalPage } from "@/tests/support/e2e/pages";
import { freePort } from "@/tests/support/processes";

import { takeNotificationPictures } from "./notification-pictures";

import {
  bestRun,
  CATEGORIES,
  failures,
  FLOOR_PAGE,
  FORM_FACTORS,
  passedAgainstFloor,
  RUNS_WHEN_SLOW,
  scoresOf,
  scoreTable,
  SEO_LEFT_OUT,
  slowRun,
  type FormFactor,
  type LighthouseResult,
  type RunScores,
} from "./lighthouse-scores";
import { startFrameworkFloor } from "./framework-floor";

const ARTIFACTS = path.join(ROOT, "artifacts", "lighthouse");
const PICTURES = path.join(ROOT, "docs", "images");
const CSRF = { "X-CSRF": "1" };
/** Where the sandbox's seeded media point (lib/sandbox/seed.ts): a host that does not exist. */
const MADE_UP_CDN = "https://cdn.example.com/*";
/** What that CDN answers in the audited tab: a grey 16:9 picture. */
const CDN_PICTURE =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 9"><rect width="16" height="9" fill="#8a8f98"/></svg>';

const log = (line: string) => console.log(`lighthouse: ${line}`);

async function untilUp(url: string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (
      await fetch(`${url}/api/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not start within 60 s`);
}

/** Signs the demo user of `role` in through the API; returns the session cookie as a Cookie header value. */
async function signIn(url: string, role: Role): Promise<string> {
  const response = await fetch(`${url}/api/auth/login`, {
    method: "POST",
    headers: { ...CSRF, "content-type": "application/json" },
    body: JSON.stringify({ email: `${role}@demo.test`, password: DEMO_PASSWORD }),
  });
  if (!response.ok) throw new Error(`signing in ${role}@demo.test failed: ${response.status} ${await response.text()}`);
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0]!)
    .join("; ");
}

/** A finished bulk check of the admin's, for the results page. */
async function makeBulkJob(url: string, cookie: string): Promise<string> {
  const created = await fetch(`${url}/api/purchases/bulk`, {
    method: "POST",
    headers: { ...CSRF, "content-type": "application/json", cookie },
    body: JSON.stringify({ codes: BULK_CODES }),
  });
  if (created.status !== 202) throw new Error(`making a bulk check failed: ${created.status} ${await created.text()}`);
  const id = ((await created.json()) as { data: { id: string } }).data.id;
  for (let i = 0; i < 300; i++) {
    const job = (await (await fetch(`${url}/api/purchases/bulk/${id}`, { headers: { cookie } })).json()) as {
      data: { status: string };
    };
    if (job.data.status === "done") return id;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("the bulk check did not finish within 30 s");
}

const slug = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");

/**
 * A tab in which the demo's made-up CDN answers: every request to it gets a small grey picture, as a real
 * marketplace's CDN would answer with the item's. Without it each picture would fail (a console error, which
 * costs best practices). Lighthouse's own blockedUrlPatterns is no substitute: Chromium then reports a failed
 * request for every <img> of the page as it is parsed, even a lazy one that is never displayed, which a real
 * browser never fetches (a phone's list of 25 items showed 50 such requests, and its LCP went from 1.3 s to 3 s).
 */
async function tabWithCdn(driver: PuppeteerBrowser): Promise<Page> {
  const page = await driver.newPage();
  const cdp = await page.createCDPSession();
  cdp.on("Fetch.requestPaused", (paused: { requestId: string }) => {
    void cdp
      .send("Fetch.fulfillRequest", {
        requestId: paused.requestId,
        responseCode: 200,
        responseHeaders: [
          { name: "Content-Type", value: "image/svg+xml" },
          { name: "Cache-Control", value: "max-age=86400" },
          { name: "Access-Control-Allow-Origin", value: "*" },
        ],
        body: Buffer.from(CDN_PICTURE).toString("base64"),
      })
      .catch(() => undefined);
  });
  await cdp.send("Fetch.enable", { patterns: [{ urlPattern: MADE_UP_CDN }] });
  return page;
}

async function audit(
  target: PortalPage,
  url: string,
  formFactor: FormFactor,
  driver: PuppeteerBrowser,
  cookie: string | null,
  attempt = 1,
): Promise<RunScores> {
  const { default: lighthouse } = await import("lighthouse");
  const config =
    formFactor === "desktop" ? (await import("lighthouse/core/config/desktop-config.js")).default : undefined;
  const tab = await tabWithCdn(driver);
  const result = await lighthouse(
    url,
    {
      output: ["json", "html"],
      logLevel: "error",
      onlyCategories: [...CATEGORIES],
      extraHeaders: cookie ? { Cookie: cookie } : undefined,
      // The 403 and 404 pages are pages too: audit them rather than stop at their status.
      ignoreStatusCode: target.status !== undefined,
      // The full-page screenshot only illustrates the HTML report (no audit of the three categories reads it), and
      // taking it (the page resized to its whole height, captured, encoded) is a step of every run. The loaded
      // page's own screenshot ("final-screenshot", saved below) is kept.
      disableFullPageScreenshot: true,
    },
    config,
    tab as never,
  ).finally(() => tab.close());
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
  const base = path.join(ARTIFACTS, `${slug(target.name)}-${formFactor}${attempt > 1 ? `-run${attempt}` : ""}`);
  const [json, html] = result.report as string[];
  writeFileSync(`${base}.report.json`, json!);
  writeFileSync(`${base}.report.html`, html!);
  const screenshot = (result.lhr.audits["final-screenshot"]?.details as { data?: string } | undefined)?.data;
  if (screenshot?.startsWith("data:image/jpeg;base64,"))
    writeFileSync(`${base}.jpg`, Buffer.from(screenshot.slice("data:image/jpeg;base64,".length), "base64"));
  return scoresOf(target.name, formFactor, result.lhr as unknown as LighthouseResult);
}

/** The README's pictures (docs/images), at 1280 × 800 in light: the admin's dashboard, the reports, a checked code. */
async function takePictures(browser: Browser, url: string, cookie: string): Promise<void> {
  mkdirSync(PICTURES, { recursive: true });
  const context = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    locale: "en-GB",
    timezoneId: "UTC",
    colorScheme: "light",
  });
  await context.addCookies(
    cookie
      .split("; ")
      .map((pair) => ({ name: pair.slice(0, pair.indexOf("=")), value: pair.slice(pair.indexOf("=") + 1), url })),
  );
  const page = await context.newPage();
  const shoot = async (name: string) => {
    await page.screenshot({ path: path.join(PICTURES, `${name}.png`), fullPage: false });
    log(`docs/images/${name}.png`);
  };

  await page.goto(`${url}/`);
  await page.getByRole("heading", { level: 1, name: "Dashboard" }).waitFor();
  await page.waitForLoadState("networkidle");
  await shoot("dashboard");

  await page.goto(`${url}/reports`);
  await page.getByRole("table").first().waitFor();
  await shoot("reports");

  await page.goto(`${url}/purchases`);
  await page.getByLabel(/Purchase code/).fill(FIXED_PURCHASE_CODES.active);
  await page.getByRole("button", { name: "Check code" }).click();
  await page.getByRole("heading", { name: /This purchase code is valid/ }).waitFor();
  await page.getByRole("img", { name: /^Preview of / }).waitFor();
  await page.waitForLoadState("networkidle");
  await shoot("purchase-check");
  await context.close();
  await takeHelpdeskPictures(browser, url, cookie);
  await takeNotificationPictures(browser, log);
}

/**
 * docs/helpdesk.md's pictures: each helpdesk sidebar app at the sidebar's 320 px in light, with the browser tests'
 * SDK stand-ins and sample ticket, asking this demo's lookup with a purchases:check token of the admin.
 */
async function takeHelpdeskPictures(browser: Browser, url: string, cookie: string): Promise<void> {
  const made = await fetch(`${url}/api/tokens`, {
    method: "POST",
    headers: { ...CSRF, "content-type": "application/json", cookie },
    body: JSON.stringify({ name: "helpdesk pictures", scopes: ["purchases:check"], expires_in_days: 7 }),
  });
  if (made.status !== 201) throw new Error(`making a helpdesk token failed: ${made.status} ${await made.text()}`);
  const token = ((await made.json()) as { data: { secret: string } }).data.secret;
  for (const vendor of ["zendesk", "freshdesk"] as const) {
    const context = await browser.newContext({
      viewport: { width: 320, height: 600 },
      locale: "en-GB",
      timezoneId: "UTC",
      colorScheme: "light",
    });
    const page = await context.newPage();
    await openHelpdeskApp(page, vendor, { portalUrl: url, token, ticket: SAMPLE_TICKET });
    await page
      .getByRole("status")
      .filter({ hasText: /codes? checked/ })
      .waitFor();
    await page.screenshot({ path: path.join(PICTURES, `helpdesk-${vendor}.png`), fullPage: true });
    log(`docs/images/helpdesk-${vendor}.png`);
    await context.close();
  }
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      pictures: { type: "boolean" },
      "pictures-only": { type: "boolean" },
      page: { type: "string" },
      "form-factor": { type: "string", multiple: true },
    },
  });
  const formFactors = values["form-factor"] ?? [...FORM_FACTORS];
  const unknown = formFactors.filter((formFactor) => !(FORM_FACTORS as readonly string[]).includes(formFactor));
  if (unknown.length > 0) {
    console.error(`--form-factor takes ${FORM_FACTORS.join(" or ")}, not ${unknown.join(", ")}.`);
    return 2;
  }
  const started = performance.now();
  const reason = buildReason();
  if (reason) {
    log(`building the portal (${reason})…`);
    const build = spawnSync(process.execPath, [BUILD], { stdio: "inherit" });
    if (build.status !== 0) return build.status ?? 1;
  }
  const dataDir = mkdtempSync(path.join(tmpdir(), "gatehouse-lighthouse-"));
  const [port, devtoolsPort] = [await freePort(), await freePort()];
  const url = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, serverArguments("127.0.0.1", String(port)), {
    stdio: "ignore",
    env: { ...process.env, NODE_ENV: "production", GATEHOUSE_DEMO: "1", DEMO_DATA_DIR: dataDir, SANDBOX_PORT: "0" },
  });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: [
      "--no-sandbox",
      `--remote-debugging-port=${devtoolsPort}`,
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
  let driver: PuppeteerBrowser | null = null;
  try {
    await untilUp(url);
    const cookies = new Map<Role, string>();
    const cookieOf = async (role: Role) => {
      if (!cookies.has(role)) cookies.set(role, await signIn(url, role));
      return cookies.get(role)!;
    };
    if (values.pictures || values["pictures-only"]) await takePictures(browser, url, await cookieOf("admin"));
    if (values["pictures-only"]) return 0;

    rmSync(ARTIFACTS, { recursive: true, force: true });
    mkdirSync(ARTIFACTS, { recursive: true });
    log(SEO_LEFT_OUT);
    const bulkJob = await makeBulkJob(url, await cookieOf("admin"));
    // Lighthouse's own driver, connected once to the same Chromium: it opens each audit's tab.
    driver = await puppeteer.connect({ browserURL: `http://127.0.0.1:${devtoolsPort}`, defaultViewport: null });
    const filter = values.page?.toLowerCase();
    const targets = PORTAL_PAGES.filter(
      (target) => !filter || target.name.toLowerCase().includes(filter) || target.path.includes(filter),
    );
    // The framework's floor, a bare Next.js page audited in the same browser: at mobile first (the CPU-bound form
    // factor), at desktop only if a desktop page turns out slow.
    const floorServer = await startFrameworkFloor(log);
    const floors: Partial<Record<FormFactor, RunScores>> = {};
    const floorPage: PortalPage = { name: FLOOR_PAGE, path: "/", heading: "Framework floor", role: null };
    /**
     * One page at one form factor, measured again while its best run fails (below the threshold, and not passing
     * against the floor), up to RUNS_WHEN_SLOW runs in all; the floor itself always RUNS_WHEN_SLOW times.
     */
    const measure = async (
      target: PortalPage,
      pageUrl: string,
      formFactor: FormFactor,
      cookie: string | null,
    ): Promise<RunScores> => {
      const runStarted = performance.now();
      let attempts = 1;
      const tries = [await audit(target, pageUrl, formFactor, driver!, cookie)];
      if (slowRun(tries[0]!) && target !== floorPage && !floors[formFactor])
        floors[formFactor] = await measure(floorPage, floorServer.url, formFactor, null);
      const again = (run: RunScores) =>
        target === floorPage ? !run.error : slowRun(run) && !passedAgainstFloor(run, floors[formFactor]);
      const measureAgain = async (runs: RunScores[], judge: (run: RunScores) => boolean) => {
        while (judge(bestRun(runs)) && runs.length < RUNS_WHEN_SLOW) {
          log(
            `${target.name} (${formFactor}): performance ${runs.at(-1)!.categories.performance.score}, measuring again (${runs.length + 1} of ${RUNS_WHEN_SLOW})`,
          );
          runs.push(await audit(target, pageUrl, formFactor, driver!, cookie, ++attempts));
        }
      };
      await measureAgain(tries, again);
      let run = bestRun(tries);
      if (target !== floorPage && again(run)) {
        // Still past the floor's ratio: the machine may have slowed down since the floor was measured (in CI the
        // first pages after the end-to-end tests failed at 3.9×, every later one passed). Measure the floor again
        // now, then the page, and judge these later runs against each other; a page that got dearer fails again.
        log(`${target.name} (${formFactor}): measuring the framework floor again beside it`);
        const floor = await measure(floorPage, floorServer.url, formFactor, null);
        const later = [await audit(target, pageUrl, formFactor, driver!, cookie, ++attempts)];
        await measureAgain(later, (laterRun) => slowRun(laterRun) && !passedAgainstFloor(laterRun, floor));
        run = { ...bestRun(later), floor };
      }
      const scores = CATEGORIES.map((category) => `${category} ${run.categories[category].score ?? "–"}`).join(", ");
      const runsAfterFloor = attempts - tries.length;
      const of = run.floor
        ? `, measured ${runsAfterFloor === 1 ? "once" : `${runsAfterFloor} times`} after the floor again`
        : attempts > 1
          ? `, best of ${attempts} runs`
          : "";
      log(
        `${target.name} (${formFactor}): ${run.error ?? scores}${run.totalBlockingTimeMs === undefined ? "" : ` (Total Blocking Time ${run.totalBlockingTimeMs} ms${of})`} in ${((performance.now() - runStarted) / 1000).toFixed(1)} s`,
      );
      return run;
    };
    const runs: RunScores[] = [];
    try {
      floors.mobile = await measure(floorPage, floorServer.url, "mobile", null);
      for (const target of targets) {
        const cookie = target.role === null ? null : await cookieOf(target.role);
        for (const formFactor of formFactors as FormFactor[])
          runs.push(await measure(target, `${url}${pathOf(target, bulkJob)}`, formFactor, cookie));
      }
    } finally {
      await floorServer.stop();
    }
    for (const run of runs) {
      const passed = passedAgainstFloor(run, floors[run.formFactor]);
      if (passed) log(`PASS ${passed}`);
    }
    console.log(`\n${scoreTable([...runs, ...Object.values(floors)])}\n`);
    const failed = failures(runs, undefined, floors);
    for (const line of failed) console.log(`FAIL ${line}`);
    log(
      `${runs.length} runs in ${((performance.now() - started) / 1000).toFixed(0)} s; reports and screenshots in ${path.relative(ROOT, ARTIFACTS)}/`,
    );
    return failed.length === 0 ? 0 : 1;
  } finally {
    await driver?.disconnect();
    await browser.close();
    server.kill("SIGTERM");
    await new Promise((resolve) => server.once("exit", resolve));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`lighthouse: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
