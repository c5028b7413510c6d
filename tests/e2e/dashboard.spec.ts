// The dashboard for each role at a phone's width and a desk's, its layout shift measured in the browser while
// slow upstreams keep its cards loading; the support role's figures against checks made here; toasts (merged,
// dismissible, on a phone never over the top bar, the button pressed or the page's own action); pictures that
// fail; the 403 and 404 pages' single logo; the shell on a phone.
import type { Browser, Locator, Page } from "@playwright/test";

import type { Role } from "@/lib/contract/values";
import { as, checkBothThemes, expect, sandbox, seriousViolations, shot, test } from "@/tests/support/e2e/fixtures";

const PHONE = { width: 390, height: 844 };
const DESK = { width: 1440, height: 900 };
const CSRF = { "X-CSRF": "1" };
/** How long the sandbox holds each upstream answer, so that every card is seen loading before it arrives. */
const SLOW_MS = 1500;

const ACTIVE = "11111111-1111-4111-8111-111111111111";
const EXPIRED = "22222222-2222-4222-8222-222222222222";
const NO_SUPPORT = "33333333-3333-4333-8333-333333333333";
const UNKNOWN = "99999999-9999-4999-8999-999999999999";
const VALIDATION_PATH = "/market/api/purchases/validation";

/** Sums every layout shift not caused by input (as Lighthouse's CLS does), from the first paint on. */
async function recordLayoutShifts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const state = { total: 0, observer: null as PerformanceObserver | null };
    const add = (entries: PerformanceEntryList) => {
      for (const entry of entries as (PerformanceEntry & { value: number; hadRecentInput: boolean })[])
        if (!entry.hadRecentInput) state.total += entry.value;
    };
    state.observer = new PerformanceObserver((list) => add(list.getEntries()));
    state.observer.observe({ type: "layout-shift", buffered: true });
    (window as unknown as { __layoutShift: () => number }).__layoutShift = () => {
      add(state.observer?.takeRecords() ?? []);
      return state.total;
    };
  });
}

/** What a loading card says to screen readers ("Loading the items…"). */
const loadingNote = (page: Page) => page.getByRole("status").filter({ hasText: /^Loading .*…$/ });

/** The shift so far, once nothing is loading any more and two frames have been painted since. */
async function layoutShiftWhenIdle(page: Page): Promise<number> {
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  await expect(loadingNote(page)).toHaveCount(0);
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  return page.evaluate(() => (window as unknown as { __layoutShift: () => number }).__layoutShift());
}

async function noSidewaysScroll(page: Page): Promise<void> {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.scrollingElement!.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth, "the page scrolls sideways").toBeLessThanOrEqual(innerWidth);
}

/** A user of `role` of this test's own, signed in in a new browser context. */
async function newUser(
  browser: Browser,
  role: Role,
  viewport = PHONE,
): Promise<{ page: Page; email: string; close: () => Promise<void> }> {
  const admin = await browser.newContext({ storageState: as("admin") });
  const email = `dash-${role}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@e2e.test`;
  const password = "e2e-dashboard-password-1";
  const added = await admin.request.post("/api/admin/users", {
    headers: CSRF,
    data: { email, name: "Dana Dashboard", role, password },
  });
  expect(added.status(), await added.text()).toBe(201);
  await admin.close();
  const context = await browser.newContext({ viewport });
  const signedIn = await context.request.post("/api/auth/login", { headers: CSRF, data: { email, password } });
  expect(signedIn.status()).toBe(200);
  return { page: await context.newPage(), email, close: () => context.close() };
}

test.describe("each role's dashboard holds still while its cards load", () => {
  test.afterEach(async () => {
    await sandbox.clearFaults();
  });

  for (const role of ["admin", "editor", "viewer", "support"] as const) {
    for (const viewport of [PHONE, DESK]) {
      test(`${role} at ${viewport.width} px: placeholders first, then the cards, with a layout shift of at most 0.05`, async ({
        browser,
      }, testInfo) => {
        await sandbox.injectFault({ path: "/seo/api/v1/*", kind: "latency", latencyMs: SLOW_MS });
        await sandbox.injectFault({ path: "/market/*", kind: "latency", latencyMs: SLOW_MS });
        const context = await browser.newContext({
          storageState: as(role),
          viewport,
          colorScheme: "light",
          reducedMotion: "reduce",
        });
        const page = await context.newPage();
        await recordLayoutShifts(page);
        await page.goto("/", { waitUntil: "commit" });
        // The upstreams are slow: the cards that need them show their placeholders first.
        await expect(loadingNote(page).first()).toBeAttached();
        const shift = await layoutShiftWhenIdle(page);
        testInfo.annotations.push({
          type: "layout shift",
          description: `${role} ${viewport.width}px: ${shift.toFixed(4)}`,
        });
        expect(shift).toBeLessThanOrEqual(0.05);

        await noSidewaysScroll(page);
        if (role !== "support") await expect(page.getByRole("region", { name: "Reports by result" })).toBeVisible();
        // Each role's own work is on the first screen: the checker for support and the admin, the newest report
        // for an editor and a viewer (an editor's dashboard once opened with the checker, the first report
        // 1,307 px down on a phone).
        if (role === "support" || role === "admin")
          await expect(page.getByRole("button", { name: "Check code" })).toBeInViewport();
        else
          await expect(page.getByRole("region", { name: "Latest reports" }).getByRole("link").first()).toBeInViewport();
        if (role === "support") await expect(page.getByRole("region", { name: "Your checks today" })).toBeVisible();
        else
          await expect(page.getByRole("region", { name: "Your checks today" })).toHaveCount(role === "viewer" ? 0 : 1);
        // The charts stay inside their cards (the trend chart's plot once grew with the width, over the table below).
        for (const card of await page.getByRole("main").locator("section").all()) {
          const overflow = await card.evaluate((element) => element.scrollHeight - element.clientHeight);
          expect(overflow, `${await card.locator("h2").first().textContent()} overflows`).toBeLessThanOrEqual(0);
        }
        expect(await seriousViolations(page)).toEqual([]);
        await shot(page, testInfo, `dashboard-${role}-${viewport.width}`);
        await context.close();
      });
    }
  }
});

test("the latest reports are the newest generated, in the order of the times they show", async ({ browser }) => {
  const context = await browser.newContext({ storageState: as("editor") });
  const page = await context.newPage();
  await page.goto("/");
  // The card streams in behind its placeholder: read its times once it has them.
  const latest = page.getByRole("region", { name: "Latest reports" });
  await expect(latest.locator("time").nth(1)).toBeVisible();
  const times = await latest
    .locator("time")
    .evaluateAll((elements) => elements.map((element) => element.getAttribute("datetime") ?? ""));
  expect(times.length).toBeGreaterThan(1);
  expect(times).toEqual([...times].sort().reverse());
  await context.close();
});

test("the support dashboard counts today's checks by outcome and lists the last ones, codes masked", async ({
  browser,
}, testInfo) => {
  const { page, email, close } = await newUser(browser, "support");
  await page.goto("/");
  const today = page.getByRole("region", { name: "Your checks today" });
  await expect(today.getByTestId("checks-today-total")).toHaveText("0");
  await expect(today).toContainText("No checks yet today.");
  await expect(today.getByRole("link", { name: "bulk check" })).toHaveAttribute("href", "/purchases/bulk");

  const checker = page.getByRole("form", { name: "Check a purchase code" });
  const check = async (code: string, heading: RegExp) => {
    await checker.getByLabel(/Purchase code/).fill(code);
    await checker.getByRole("button", { name: "Check code" }).click();
    await expect(page.getByRole("heading", { name: heading })).toBeVisible();
  };
  await check(ACTIVE, /This purchase code is valid/);
  await check(EXPIRED, /its support has expired/);
  await check(NO_SUPPORT, /This purchase code is valid/);
  await check(UNKNOWN, /This purchase code is not valid/);
  await sandbox.injectFault({ method: "POST", path: VALIDATION_PATH, kind: "status", status: 500, times: 1 });
  await checker.getByLabel(/Purchase code/).fill(`${ACTIVE.slice(0, -4)}abcd`);
  await checker.getByRole("button", { name: "Check code" }).click();
  await expect(page.getByText("The code could not be checked")).toBeVisible();
  await sandbox.clearFaults();

  // Fresh on the page where the checks were made, without a reload (issue 31, point 5).
  await expect(today.getByTestId("checks-today-total")).toHaveText("5");
  const shares = today.getByRole("list", { name: "By outcome" }).getByRole("listitem");
  await expect(shares).toHaveText([
    /Valid\s*2 \(40%\)/,
    /Support expired\s*1 \(20%\)/,
    /Invalid\s*1 \(20%\)/,
    /Failed\s*1 \(20%\)/,
  ]);
  const last = today
    .getByRole("listitem")
    .filter({ has: page.getByRole("link", { name: /^Check again\s+for the code ending/ }) });
  await expect(last).toHaveCount(5);
  // Newest first; the code as its last 4 characters only, as the history shows it.
  await expect(last.nth(0)).toContainText("abcd");
  await expect(last.nth(0)).toContainText("Failed");
  await expect(last.nth(1)).toContainText("9999");
  await expect(last.nth(1)).toContainText("Invalid");
  await expect(last.nth(3)).toContainText("Valid, support expired");
  // (The checker's hint shows an example code: the card is what must not hold any.)
  const html = await today.innerHTML();
  for (const code of [ACTIVE, EXPIRED, NO_SUPPORT, UNKNOWN]) expect(html).not.toContain(code);
  await noSidewaysScroll(page);
  // axe, in light and in dark, with the card full (screenshots of both).
  await checkBothThemes(page, testInfo, "support-checks-today-390");

  await expect(last.nth(1).getByRole("link", { name: /^Check again\s+for the code ending 9999$/ })).toHaveAttribute(
    "href",
    "/purchases",
  );
  // "In the history" lists the same checks: this person's, today (UTC).
  await today.getByRole("link", { name: "In the history" }).click();
  await expect(page).toHaveURL(
    new RegExp(
      `/purchases/history\\?user=${encodeURIComponent(email).replace(/\./g, "\\.")}&from=\\d{4}-\\d{2}-\\d{2}&to=\\d{4}-\\d{2}-\\d{2}`,
    ),
  );
  await expect(
    page
      .getByRole("main")
      .getByText(/^5 checks?|of 5\b/)
      .first(),
  ).toBeVisible();
  await close();
});

/** Fails when `toasts` overlaps any of `controls` on screen (they may sit side by side or one above the other). */
async function expectUncovered(toasts: Locator, ...controls: Locator[]): Promise<void> {
  const over = (await toasts.boundingBox())!;
  for (const control of controls) {
    const box = (await control.boundingBox())!;
    const apart =
      over.y + over.height <= box.y ||
      box.y + box.height <= over.y ||
      over.x + over.width <= box.x ||
      box.x + box.width <= over.x;
    expect(apart, `the toasts (${JSON.stringify(over)}) cover ${control} (${JSON.stringify(box)})`).toBe(true);
  }
}

test.describe("toasts", () => {
  test.use({ storageState: as("viewer"), viewport: PHONE });

  test("a repeat is counted on the toast shown, each has a close button, and on a phone none covers the button", async ({
    page,
    context,
  }) => {
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    await page.goto("/reports/1");
    const copy = page.getByRole("button", { name: "Copy link" });
    await copy.evaluate((button) => button.scrollIntoView({ block: "center" }));
    await copy.click();
    const toasts = page.getByRole("region", { name: "Notifications" });
    await expect(toasts.getByText("Link copied.")).toBeVisible();
    await copy.click();
    await copy.click();
    // One toast, counted, not three.
    await expect(toasts.getByText("Link copied.")).toHaveCount(1);
    await expect(toasts.getByRole("status")).toContainText("Link copied. ×3");
    await expect(toasts.getByRole("status")).toContainText("(3 times)");

    // On a phone the toast sits at the bottom: off the button just pressed and off the top bar's Menu and alerts.
    const toast = toasts.getByRole("status").locator("> div").first();
    await expectUncovered(
      toast,
      copy,
      page.getByRole("button", { name: "Menu" }),
      page.getByRole("link", { name: /^Alerts, / }),
    );
    await noSidewaysScroll(page);

    // The page ends with room for it: scrolled to the end, the page's last button is above the toast.
    await page.evaluate(() => window.scrollTo(0, document.scrollingElement!.scrollHeight));
    await expectUncovered(toast, page.getByRole("main").getByRole("button").last());

    await toasts.getByRole("button", { name: "Dismiss: Link copied." }).click();
    await expect(toasts.getByText("Link copied.")).toHaveCount(0);

    // A button at the foot of the screen: the toast goes to the top, under the top bar, off it and off the bar.
    await copy.evaluate((button) => button.scrollIntoView({ block: "end" }));
    await copy.click();
    await expect(toasts.getByText("Link copied.")).toBeVisible();
    expect((await toast.boundingBox())!.y).toBeLessThan(PHONE.height / 2);
    await expectUncovered(
      toast,
      copy,
      page.getByRole("button", { name: "Menu" }),
      page.getByRole("link", { name: /^Alerts, / }),
    );
  });

  test("at most three show at once: the oldest goes", async ({ browser }) => {
    const { page, close } = await newUser(browser, "admin");
    // The browser's clock stands still: success toasts stay (they leave after 6 s), so only the limit removes one.
    await page.clock.install();
    await page.goto("/admin/users");
    await page.clock.pauseAt(new Date(Date.now() + 60_000));
    for (const n of [1, 2, 3, 4]) {
      await page.getByRole("button", { name: "Add user" }).click();
      const dialog = page.getByRole("dialog", { name: "Add a user" });
      await dialog.getByLabel(/^Name/).fill(`Toast Tester ${n}`);
      await dialog.getByLabel(/^Email/).fill(`toast-${n}-${Date.now()}@e2e.test`);
      await dialog.getByLabel(/^Password/).fill("toast-tester-password-1");
      await dialog.getByRole("button", { name: "Add user" }).click();
      await expect(dialog).toBeHidden();
      await expect(
        page.getByRole("region", { name: "Notifications" }).getByText(`Added Toast Tester ${n}`),
      ).toBeVisible();
    }
    const shown = page.getByRole("region", { name: "Notifications" }).getByText(/^Added Toast Tester/);
    await expect(shown).toHaveCount(3);
    await expect(page.getByRole("region", { name: "Notifications" }).getByText(/Added Toast Tester 1 /)).toHaveCount(0);
    // Three at once still leave the page's own action and the top bar in reach.
    await expectUncovered(
      page.getByRole("region", { name: "Notifications" }).getByRole("status"),
      page.getByRole("button", { name: "Add user" }),
      page.getByRole("button", { name: "Menu" }),
      page.getByRole("link", { name: /^Alerts, / }),
    );
    await close();
  });
});

test.describe("pictures that fail to load", () => {
  test.use({ storageState: as("viewer") });

  test("leave a neutral box of their size with the alt text, never a broken image", async ({ page }, testInfo) => {
    // The demo's pictures live on a CDN; here every one of them fails.
    await page.route("https://cdn.example.com/**", (route) => route.abort("connectionrefused"));
    await page.goto("/items");
    const item = page.getByRole("main").locator('a[href^="/items/"]').first();
    await expect(item).toBeVisible();
    await page.goto((await item.getAttribute("href"))!);
    const preview = page.getByRole("img", { name: /^(Preview|Cover) of / });
    await expect(preview).toBeVisible();
    await expect(preview).toHaveAttribute("data-media-failed", "");
    await expect(preview).toContainText(/^(Preview|Cover) of /);
    const thumb = page.getByRole("img", { name: /^Thumbnail of / });
    await expect(thumb).toHaveAttribute("data-media-failed", "");
    // The thumbnail's box keeps the picture's size: the page's width for it (5rem), at the picture's ratio (160 × 90).
    const box = (await thumb.boundingBox())!;
    expect(Math.round(box.width)).toBe(80);
    expect(Math.round(box.height)).toBe(45);
    const screenshots = page.getByRole("img", { name: /^Screenshot 1 of / });
    await expect(screenshots).toHaveAttribute("data-media-failed", "");
    // No <img> is left broken on the page.
    const broken = await page
      .locator("img")
      .evaluateAll(
        (images) => (images as HTMLImageElement[]).filter((image) => image.complete && image.naturalWidth === 0).length,
      );
    expect(broken).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, testInfo, "item-media-failed");

    // The seller's account: the cover (decoration) an empty box, the avatar its initials.
    await page.goto("/account");
    await expect(page.locator("main [data-media-failed]")).toHaveCount(2);
    await expect(page.locator("main img")).toHaveCount(0);
    expect(await seriousViolations(page)).toEqual([]);
  });
});

test.describe("pages outside the portal's reach show the logo once", () => {
  test.use({ storageState: as("viewer") });

  test("403 inside the shell: one product name, one main landmark, the shell's navigation", async ({ page }) => {
    const response = await page.goto("/purchases");
    expect(response?.status()).toBe(403);
    await expect(page.getByRole("heading", { name: "You may not open this page" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Gatehouse", exact: true })).toHaveCount(1);
    await expect(page.getByRole("main")).toHaveCount(1);
    await expect(page.locator("#main-content")).toHaveCount(1);
    await expect(page.getByRole("navigation", { name: "Main" })).toBeAttached();
  });

  test("404 inside the shell and outside it: the logo once each", async ({ page }) => {
    const inside = await page.goto("/reports/987654321");
    expect(inside?.status()).toBe(404);
    await expect(page.getByRole("link", { name: "Gatehouse", exact: true })).toHaveCount(1);
    await expect(page.getByRole("main")).toHaveCount(1);

    const outside = await page.goto("/no-such-page-here");
    expect(outside?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Gatehouse", exact: true })).toHaveCount(1);
    await expect(page.getByRole("main")).toHaveCount(1);
  });
});

test.describe("the shell on a phone", () => {
  test.use({ storageState: as("admin"), viewport: PHONE });

  test("the menu opens every section, the account controls fit, and nothing scrolls sideways", async ({
    page,
  }, testInfo) => {
    await page.goto("/");
    await noSidewaysScroll(page);
    const menu = page.getByRole("button", { name: "Menu" });
    await expect(menu).toBeInViewport();
    await expect(page.getByRole("navigation", { name: "Main" })).toBeHidden();
    await menu.click();
    await expect(menu).toHaveAttribute("aria-expanded", "true");
    const nav = page.getByRole("navigation", { name: "Main" });
    await expect(nav.getByRole("link", { name: "Reports" })).toBeInViewport();
    await noSidewaysScroll(page);
    // The account: who is signed in, the theme and sign-out, all inside the screen's width.
    const account = page.getByRole("region", { name: "Your account" });
    for (const control of [
      account,
      account.getByRole("group", { name: "Theme" }),
      account.getByRole("button", { name: "Sign out" }),
    ]) {
      await control.scrollIntoViewIfNeeded();
      const box = (await control.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
    }
    await shot(page, testInfo, "shell-menu-390");
    await nav.getByRole("link", { name: "Reports" }).click();
    await expect(page).toHaveURL(/\/reports$/);
    await expect(menu).toHaveAttribute("aria-expanded", "false");
    await page.keyboard.press("Escape");
  });

  test("at 1440 px the content keeps a readable width beside the navigation", async ({ page }) => {
    await page.setViewportSize(DESK);
    await page.goto("/");
    await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
    const content = (await page.locator("#main-content > div").boundingBox())!;
    // --content-max-width: 72rem.
    expect(content.width).toBeLessThanOrEqual(72 * 16);
    await noSidewaysScroll(page);
  });
});
