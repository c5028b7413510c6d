// The helpdesk sidebar apps (helpdesk/zendesk, helpdesk/freshdesk) in Chromium at the sidebar's 320 px, each with a
// stand-in of its vendor's SDK that serves a ticket (tests/support/e2e/helpdesk.ts): the app reads the ticket, the
// vendor's side (played in Node) adds the token and asks the real Gatehouse, and the card shows each code's verdict,
// in light and dark, with nothing for axe to find. The token never reaches the page. A revoked token shows the
// sentence that tells the agent what to do. A reversed sale reads Revoked; a code checked before reads Not fresh
// while the item service fails.
import { request, type APIRequestContext, type Page } from "@playwright/test";

import { axeViolations, expect, sandbox, shot, test } from "@/tests/support/e2e/fixtures";
import { openHelpdeskApp, SAMPLE_TICKET, type TicketFixture } from "@/tests/support/e2e/helpdesk";
import { credentialsOf, PORTAL_URL } from "@/tests/support/e2e/settings";
import { FIXED_PURCHASE_CODES } from "@/lib/sandbox";
import { seedSellers } from "@/lib/sandbox/seed";

const CSRF = { "X-CSRF": "1" };
const SIDEBAR = { width: 320, height: 900 };

const TICKET = SAMPLE_TICKET;

/** Seeded sales no other browser test names (purchases-lifecycle.spec.ts takes the last three). */
const SEEDED = [...seedSellers().main.purchases.keys()].filter(
  (code) => !(Object.values(FIXED_PURCHASE_CODES) as string[]).includes(code),
);
const LIFE = { reversed: SEEDED.at(-4)!, seen: SEEDED.at(-5)! };

interface MadeToken {
  secret: string;
  id: string;
  owner: APIRequestContext;
}

/** A purchases:check token of the support user, made as Admin → Helpdesk makes one (POST /api/tokens). */
async function makeToken(): Promise<MadeToken> {
  const owner = await request.newContext({ baseURL: PORTAL_URL });
  const { email, password } = credentialsOf("support");
  expect((await owner.post("/api/auth/login", { headers: CSRF, data: { email, password } })).status()).toBe(200);
  const response = await owner.post("/api/tokens", {
    headers: CSRF,
    data: { name: `sidebar app test ${Date.now()}`, scopes: ["purchases:check"], expires_in_days: 7 },
  });
  expect(response.status(), await response.text()).toBe(201);
  const { data } = (await response.json()) as { data: { secret: string; id: string } };
  const token = { secret: data.secret, id: String(data.id), owner };
  madeTokens.push(token);
  return token;
}

/** The tokens a test made, revoked after it (an account may hold MAX_ACTIVE_TOKENS_PER_OWNER active tokens). */
const madeTokens: MadeToken[] = [];
test.afterEach(async () => {
  for (const token of madeTokens.splice(0)) {
    await token.owner.delete(`/api/tokens/${token.id}`, { headers: CSRF });
    await token.owner.dispose();
  }
});

/** Light, then dark, at the sidebar's width: nothing scrolls sideways and axe finds nothing at all. */
async function checkBothSchemes(page: Page, name: string, testInfo: Parameters<typeof shot>[1]): Promise<void> {
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme, reducedMotion: "reduce" });
    await page.waitForFunction(
      (dark) => window.matchMedia("(prefers-color-scheme: dark)").matches === dark,
      scheme === "dark",
    );
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    expect(
      await page.evaluate(() => document.scrollingElement!.scrollWidth),
      `${scheme}: no sideways scroll`,
    ).toBeLessThanOrEqual(SIDEBAR.width);
    expect(await axeViolations(page), `${scheme} mode`).toEqual([]);
    await shot(page, testInfo, `${scheme}-${name}`);
  }
}

/** Everything of the page a script or a person could read: the DOM, the globals, storage, cookies. */
async function pageState(page: Page): Promise<string> {
  return page.evaluate(() => {
    const globals: Record<string, unknown> = {};
    for (const key of Object.keys(window)) {
      try {
        globals[key] = JSON.stringify((window as unknown as Record<string, unknown>)[key]);
      } catch {
        globals[key] = "(not serialisable)";
      }
    }
    return [
      document.documentElement.outerHTML,
      JSON.stringify(globals),
      JSON.stringify({ ...localStorage }),
      JSON.stringify({ ...sessionStorage }),
      document.cookie,
    ].join("\n");
  });
}

for (const vendor of ["zendesk", "freshdesk"] as const) {
  test.describe(`the ${vendor} sidebar app`, () => {
    test.use({ viewport: SIDEBAR });

    test("reads the ticket, shows each code's verdict, keeps the token out of the page, in light and dark", async ({
      page,
    }, testInfo) => {
      const token = await makeToken();
      const sent: string[] = [];
      page.on("request", (request) =>
        sent.push(`${request.url()} ${JSON.stringify(request.headers())} ${request.postData() ?? ""}`),
      );
      const opened = await openHelpdeskApp(page, vendor, {
        portalUrl: PORTAL_URL,
        token: token.secret,
        ticket: TICKET,
      });

      const card = page.getByRole("main");
      await expect(card.getByRole("heading", { name: "Purchase codes" })).toBeVisible();
      await expect(card.getByRole("status")).toHaveText("4 codes checked.");
      await expect(card).not.toHaveAttribute("aria-busy");
      const codes = card.getByRole("list", { name: "Purchase codes in this ticket" }).getByRole("listitem");
      await expect(codes).toHaveCount(4);

      const active = codes.filter({ hasText: `Code …${FIXED_PURCHASE_CODES.active.slice(-4)}` });
      await expect(active).toContainText(/Valid — Regular License, /);
      await expect(active).toContainText(/Support active until \d{1,2} \w{3} \d{4}/);
      await expect(active).toContainText("The ticket has an almost-code: letter l at position 36 — did you mean 1?");
      await expect(active).toContainText("This verdict is of the corrected code.");
      await expect(codes.filter({ hasText: "Code …4444" })).toContainText("Not valid:");
      const expired = codes.filter({ hasText: `Code …${FIXED_PURCHASE_CODES.expired.slice(-4)}` });
      await expect(expired).toContainText(/Valid — /);
      await expect(expired).toContainText(/Support expired on \d{1,2} \w{3} \d{4}/);
      await expect(codes.filter({ hasText: "Not checked" })).toContainText("The ticket has an almost-code:");

      // Gatehouse was asked once, by the vendor's side, with the token and the ticket; the page saw neither.
      expect(opened.lookups).toHaveLength(1);
      expect(opened.lookups[0]!.authorization).toBe(`Bearer ${token.secret}`);
      expect(opened.lookups[0]!.body).toMatchObject({ ticket: { system: vendor, id: String(TICKET.id) } });
      expect(JSON.stringify(opened.lookups[0]!.body)).toContain("On Monday, Support wrote:");
      expect(JSON.stringify(opened.lookups[0]!.body)).not.toContain("<strong>");
      expect(await pageState(page)).not.toContain(token.secret);
      expect(sent.join("\n")).not.toContain(token.secret);

      // The app asked its sidebar to fit the card (Zendesk: invoke("resize"); Freshdesk: instance.resize).
      const calls = await page.evaluate(() => (window as unknown as { __helpdeskCalls: unknown[][] }).__helpdeskCalls);
      const resizes = calls.filter((call) => call.includes("resize")).map((call) => call.at(-1) as { height: string });
      const cardHeight = await card.evaluate((main) => Math.ceil(main.getBoundingClientRect().bottom));
      expect(resizes.at(-1)!.height).toBe(`${cardHeight}px`);
      expect(cardHeight).toBeGreaterThan(400);

      // A second look checks again (Gatehouse counts it in the history).
      await card.getByRole("button", { name: "Check again" }).click();
      await expect.poll(() => opened.lookups.length).toBe(2);
      await expect(card).not.toHaveAttribute("aria-busy");
      // (Who checked it first depends on the tests before: the browser tests share one store.)
      await expect(active).toContainText(/Checked \d+ times? before, first on \d{1,2} \w{3} \d{4} by \S+@e2e\.test\./);

      await checkBothSchemes(page, `${vendor}-verdicts`, testInfo);
    });

    test("a purchase's life: a reversed sale reads Revoked, and with the item service failing a code checked before reads Not fresh", async ({
      page,
    }, testInfo) => {
      const token = await makeToken();
      // Seen valid first (the checker, as the token's owner); then the sale is reversed at the marketplace.
      for (const code of [LIFE.reversed, LIFE.seen]) {
        const checked = await token.owner.post("/api/purchases/validate", {
          headers: CSRF,
          data: { purchase_code: code },
        });
        expect(checked.status(), await checked.text()).toBe(200);
      }
      await sandbox.setPurchase(LIFE.reversed, { reversed: true });
      try {
        const ticket = (id: number, code: string): TicketFixture => ({
          id,
          subject: "My licence",
          messages: [`<p>My purchase code is ${code}.</p>`],
        });
        await openHelpdeskApp(page, vendor, {
          portalUrl: PORTAL_URL,
          token: token.secret,
          ticket: ticket(4301, LIFE.reversed),
        });
        const card = page.getByRole("main");
        const revoked = card.getByRole("listitem").filter({ hasText: `Code …${LIFE.reversed.slice(-4)}` });
        await expect(revoked).toContainText(
          /Revoked: Valid on \d{1,2} \w{3} \d{4} \(.+\), not valid now: the sale was probably refunded or reversed\./,
        );
        await checkBothSchemes(page, `${vendor}-revoked`, testInfo);

        // The item service answers 503: a code never looked up here gets its last verdict, marked as not fresh.
        await sandbox.injectFault({
          method: "POST",
          path: "/market/api/purchases/validation",
          kind: "status",
          status: 503,
        });
        const second = await page.context().newPage();
        await openHelpdeskApp(second, vendor, {
          portalUrl: PORTAL_URL,
          token: token.secret,
          ticket: ticket(4302, LIFE.seen),
        });
        const stale = second
          .getByRole("main")
          .getByRole("listitem")
          .filter({ hasText: `Code …${LIFE.seen.slice(-4)}` });
        // Its last verdict is support's check, or, when another vendor's run of this test answered it stale before,
        // the re-check the portal made of it once the item service was back (its minute's tick, not ours to time).
        await expect(stale).toContainText(
          /Not fresh: Valid as of (moments|\d+ (minute|hour)s?) ago, checked by (support@e2e\.test|Gatehouse's re-check)\. The item API did not answer now/,
        );
        await checkBothSchemes(second, `${vendor}-not-fresh`, testInfo);
      } finally {
        await sandbox.reset();
      }
    });

    test("a revoked token: the card says what to do, in light and dark", async ({ page }, testInfo) => {
      const token = await makeToken();
      expect((await token.owner.delete(`/api/tokens/${token.id}`, { headers: CSRF })).status()).toBe(200);
      await openHelpdeskApp(page, vendor, { portalUrl: PORTAL_URL, token: token.secret, ticket: TICKET });

      const status = page.getByRole("main").getByRole("status");
      await expect(status).toHaveText(
        "The token in the app's settings has been revoked. Ask a Gatehouse admin for a new one (Admin → Helpdesk) and put it in the app's settings.",
      );
      await expect(page.getByRole("list", { name: "Purchase codes in this ticket" })).toBeHidden();
      await expect(page.getByRole("button", { name: "Check again" })).toBeEnabled();
      await checkBothSchemes(page, `${vendor}-revoked`, testInfo);
    });
  });
}

test("a ticket without a code says so, and a new comment is checked as it comes (Zendesk's event)", async ({
  page,
}) => {
  await page.setViewportSize(SIDEBAR);
  const token = await makeToken();
  const ticket: TicketFixture = {
    id: 77,
    subject: "Where is my invoice?",
    messages: ["<p>Hi, I need the invoice.</p>"],
  };
  const opened = await openHelpdeskApp(page, "zendesk", { portalUrl: PORTAL_URL, token: token.secret, ticket });
  await expect(page.getByRole("status")).toHaveText("No purchase code in this ticket.");

  await page.evaluate((code) => {
    const fixture = (window as unknown as { __helpdeskFixture: { data: Record<string, { value: string }[]> } })
      .__helpdeskFixture;
    fixture.data["ticket.comments"]!.push({ value: `<p>Oh, and my code: ${code}</p>` });
    (window as unknown as { __helpdeskFire: (name: string) => void }).__helpdeskFire("ticket.comments.changed");
  }, FIXED_PURCHASE_CODES.none);
  await expect(page.getByRole("status")).toHaveText("1 code checked.");
  await expect(page.getByRole("listitem")).toContainText("No support");
  expect(opened.lookups).toHaveLength(2);
});

test("Gatehouse out of reach: the Freshdesk card says to check the address, and checks again on request", async ({
  page,
}) => {
  await page.setViewportSize(SIDEBAR);
  const token = await makeToken();
  // A port nothing listens on: the vendor's side cannot reach Gatehouse.
  const opened = await openHelpdeskApp(page, "freshdesk", {
    portalUrl: "http://127.0.0.1:9",
    token: token.secret,
    ticket: TICKET,
  });
  await expect(page.getByRole("status")).toHaveText(
    "Gatehouse could not be reached. Check that the Gatehouse address in the app's settings is right and that Gatehouse is up, then check again.",
  );
  await page.getByRole("button", { name: "Check again" }).click();
  await expect.poll(() => opened.lookups.length).toBe(2);
  await expect(page.getByRole("main")).not.toHaveAttribute("aria-busy");
  await expect(page.getByRole("status")).toHaveText(/^Gatehouse could not be reached\./);
});
