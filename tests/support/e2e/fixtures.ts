// The browser tests' helpers: sign in as a role (a saved browser state), control the sandbox behind the
// portal (reset its data, inject faults, reverse a sale), save a screenshot of a page into the test's output, run axe.
import AxeBuilder from "@axe-core/playwright";
import { test as base, expect, type Locator, type Page, type TestInfo } from "@playwright/test";

import type { Role } from "@/lib/contract/values";
import type { FaultSpec } from "@/lib/sandbox";

import { authFile, credentialsOf, SANDBOX_URL } from "./settings";

export { expect };

async function control(method: string, route: string, body?: unknown): Promise<void> {
  const response = await fetch(`${SANDBOX_URL}/__sandbox${route}`, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`sandbox control ${method} ${route}: ${response.status} ${await response.text()}`);
}

export const sandbox = {
  /** Back to the seeded demo data, no faults. Call it in a test that changes data, so order never matters. */
  reset: () => control("POST", "/reset"),
  injectFault: (fault: FaultSpec) => control("POST", "/faults", fault),
  clearFaults: () => control("DELETE", "/faults"),
  /** The report's next regeneration (or, with when "now", the report at once) gets this result. */
  setResult: (id: number, spec: { result: "good" | "decent" | "bad"; generated_at?: string; when?: "next" | "now" }) =>
    control("POST", `/reports/${id}/result`, spec),
  /** A sale reversed (or reinstated) and its support's end moved, as the marketplace would; reset() undoes both. */
  setPurchase: (code: string, change: { reversed?: boolean; supported_until?: string | null }) =>
    control("POST", `/purchases/${encodeURIComponent(code)}`, change),
};

/** The browser state of a signed-in user of this role, for test.use({ storageState: as("viewer") }). */
export const as = (role: Role) => authFile(role);

/**
 * The saved state's session was signed in when the run began, and may be more than STEP_UP_MINUTES old by the time
 * a test makes a sensitive change (the portal would then ask "Confirm it is you"): a fresh proof with the password
 * first, as that dialog gives. The step-up itself is tested in tests/e2e/step-up.spec.ts.
 */
export async function confirmedAgain(page: Page, role: Role): Promise<void> {
  const response = await page.request.post("/api/auth/step-up", {
    headers: { "X-CSRF": "1" },
    data: { method: "password", password: credentialsOf(role).password },
  });
  expect(response.status(), await response.text()).toBe(200);
}

/** A full-page screenshot in the test's output folder (test-results/<test>/<name>.png). */
/**
 * Waits until React has hydrated the element (it keeps its props on the node then). A controlled radio clicked
 * before that is set back by hydration to the state the server rendered, so a test that clicks one right after
 * the page opens waits for this first, as a person's second click would.
 */
export async function hydrated(element: Locator): Promise<void> {
  await expect
    .poll(() => element.evaluate((node) => Object.keys(node).some((key) => key.startsWith("__reactProps"))))
    .toBe(true);
}

export async function shot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  await page.screenshot({ path: testInfo.outputPath(`${name}.png`), fullPage: true });
}

const WCAG_21_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];

/** The serious and critical axe violations of the page as it is now (WCAG 2.1 A and AA rules). */
export async function seriousViolations(page: Page): Promise<string[]> {
  return axeViolations(page, { impacts: ["serious", "critical"], tags: WCAG_21_AA });
}

/**
 * axe's findings on the page as it is now, one line each; by default every finding of the WCAG 2.1 A/AA rules and
 * of axe's best practices (unique landmarks, content in landmarks…), as the layout walk asks.
 */
export async function axeViolations(
  page: Page,
  {
    impacts = ["minor", "moderate", "serious", "critical"],
    tags = [...WCAG_21_AA, "best-practice"],
  }: { impacts?: readonly string[]; tags?: string[] } = {},
): Promise<string[]> {
  // Only the violations are read, so axe reports only those in full (resultTypes: one node each of the rules that
  // passed, were incomplete or did not apply, instead of all of them serialised). A page without frames is
  // analysed in the page itself (axe.run: the builder's legacy mode) instead of through axe.runPartial, a blank
  // page opened to gather the frames' parts, and axe injected into both: with no frame there is nothing that mode
  // leaves out (it does not test cross-origin frames; a page with frames keeps the default). The same rules and
  // the same violations, node for node (shown on pages given violations of seven rules); 3–5× quicker, which the
  // layout walk's 96 analyses felt most (docs/development.md, Browser tests).
  // (`options` replaces the builder's options, so it comes before withTags.)
  const builder = new AxeBuilder({ page }).options({ resultTypes: ["violations"] }).withTags(tags);
  if (page.frames().length === 1) builder.setLegacyMode(true);
  const results = await builder.analyze();
  return results.violations
    .filter((violation) => impacts.includes(violation.impact ?? ""))
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help} — ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`,
    );
}

/**
 * axe in light mode, then in dark mode, on the page as it is (one page load), with a screenshot of each. Each
 * check waits for the page to have settled in the scheme: the media query answers it, and no transition or
 * animation is still running (reduced motion turns them off), so axe never measures a colour halfway.
 */
export async function checkBothThemes(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme, reducedMotion: "reduce" });
    await page.waitForFunction(
      (dark) =>
        window.matchMedia("(prefers-color-scheme: dark)").matches === dark &&
        document.getAnimations().every((animation) => animation.playState !== "running"),
      scheme === "dark",
    );
    // Style recalculation and paint of the new scheme: two frames.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    expect(await seriousViolations(page), `${scheme} mode`).toEqual([]);
    await shot(page, testInfo, `${scheme}-${name}`);
  }
}

/** Screenshots of the page in light and dark, at 1440 px and at 390 px wide (phone), named `<scheme>-<width>-<name>`. */
export async function shotsAtWidths(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const height = page.viewportSize()?.height ?? 900;
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height });
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme, reducedMotion: "reduce" });
      await page.waitForFunction(
        (dark) => window.matchMedia("(prefers-color-scheme: dark)").matches === dark,
        scheme === "dark",
      );
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
      await shot(page, testInfo, `${scheme}-${width}-${name}`);
    }
  }
  await page.setViewportSize({ width: 1280, height });
  await page.emulateMedia({ colorScheme: null, reducedMotion: null });
}

export const test = base;
