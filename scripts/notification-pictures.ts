// docs/notifications.md's pictures, rendered from what the senders make (lib/notifications): the weekly digest's
// e-mail (its HTML part, as a mail client shows it) and a Microsoft Teams card (the Adaptive Card, rendered by
// Microsoft's own adaptivecards library with its default host config). Slack has no renderer outside Slack, so
// its message is described in the docs instead. Run by `npm run screenshots` (scripts/lighthouse.ts), or alone:
// `npx tsx scripts/notification-pictures.ts` (Debian's Chromium, CHROMIUM_PATH).
import path from "node:path";

import { chromium, type Browser } from "@playwright/test";

import { renderMail } from "@/lib/notifications/email";
import type { NotificationMessage } from "@/lib/notifications/message";
import { teamsCard } from "@/lib/notifications/teams";
import { ROOT } from "@/tests/support/processes";

const PICTURES = path.join(ROOT, "docs", "images");
const ORIGIN = "https://gatehouse.example.com";

const DIGEST: NotificationMessage = {
  topic: "digest",
  title: "Your week in Gatehouse: 21–27 December",
  text: "38 reports checked in 3 projects; 2 pages got worse and 3 got better; 1 alert is open.",
  since: "2026-12-21T00:00:00.000Z",
  link: "/",
  tone: "info",
  sections: [
    {
      heading: "Results by project",
      lines: [
        { text: "acme.io: 14 good, 3 need work, 1 bad", link: "/projects/acme.io/overview" },
        { text: "docs.acme.io: 12 good, 2 need work", link: "/projects/docs.acme.io/overview" },
        { text: "shop.acme.io: 5 good, 1 bad", link: "/projects/shop.acme.io/overview" },
      ],
    },
    {
      heading: "Got worse",
      lines: [
        { text: "acme.io/pricing: good → bad", link: "/reports/412" },
        { text: "shop.acme.io/cart: needs work → bad", link: "/reports/398" },
      ],
    },
    {
      heading: "Got better",
      lines: [
        { text: "acme.io/blog: bad → good", link: "/reports/377" },
        { text: "docs.acme.io/install: needs work → good", link: "/reports/365" },
        { text: "docs.acme.io/api: needs work → good", link: "/reports/366" },
      ],
    },
    { heading: "Open alerts", lines: [{ text: "acme.io/pricing dropped to bad on 24 December", link: "/alerts" }] },
  ],
};

const REGRESSIONS: NotificationMessage[] = ["pricing", "about", "blog"].map((page, i) => ({
  topic: "report.regressed",
  title: `acme.io/${page} went from good to bad`,
  text: "Its result dropped and stayed so for 2 results.",
  since: `2026-12-24T${String(8 + i).padStart(2, "0")}:15:00.000Z`,
  link: `/reports/${412 + i}`,
  tone: "bad",
  group: "acme.io",
  facts: [
    { label: "Project", value: "acme.io" },
    { label: "Rule", value: "Largest Contentful Paint" },
  ],
}));

export async function takeNotificationPictures(browser: Browser, log: (line: string) => void): Promise<void> {
  const context = await browser.newContext({
    viewport: { width: 680, height: 600 },
    locale: "en-GB",
    colorScheme: "light",
  });
  const page = await context.newPage();

  const mail = renderMail([DIGEST], {
    publicOrigin: ORIGIN,
    unsubscribe: { url: `${ORIGIN}/notifications/unsubscribe?token=…`, what: "the weekly digest" },
  });
  await page.setContent(mail.html);
  await page.screenshot({ path: path.join(PICTURES, "notification-digest-email.png"), fullPage: true });
  log("docs/images/notification-digest-email.png");

  await page.setContent(
    '<!doctype html><html lang="en"><body style="margin:0;padding:16px;background:#f5f5f5;font-family:Segoe UI,Helvetica,Arial,sans-serif"><div id="card" style="max-width:560px;background:#fff;border-radius:4px"></div></body></html>',
  );
  await page.addScriptTag({ path: path.join(ROOT, "node_modules/adaptivecards/dist/adaptivecards.min.js") });
  await page.evaluate(
    (card) => {
      const cards = (window as unknown as { AdaptiveCards: { AdaptiveCard: new () => AdaptiveCardLike } })
        .AdaptiveCards;
      const adaptive = new cards.AdaptiveCard();
      adaptive.parse(card);
      const element = adaptive.render();
      if (element) document.getElementById("card")!.appendChild(element);
    },
    teamsCard(REGRESSIONS, ORIGIN),
  );
  await page.locator("#card").screenshot({ path: path.join(PICTURES, "notification-teams-card.png") });
  log("docs/images/notification-teams-card.png");
  await context.close();
}

interface AdaptiveCardLike {
  parse(json: unknown): void;
  render(): HTMLElement | undefined;
}

if (process.argv[1]?.endsWith("notification-pictures.ts")) {
  void (async () => {
    const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium" });
    try {
      await takeNotificationPictures(browser, (line) => console.log(line));
    } finally {
      await browser.close();
    }
  })();
}
