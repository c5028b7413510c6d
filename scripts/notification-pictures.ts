// docs/notifications.md's pictures, rendered from what the senders make (lib/notifications): the weekly digest's
// e-mail (its HTML part, as a mail client shows it), a Microsoft Teams card (the Adaptive Card, rendered by
// Microsoft's own adaptivecards library with its default host config) and a Slack message. Nothing renders Block
// Kit outside Slack, so slackPreview below draws the exact payload lib/notifications/slack.ts sends in Slack's
// layout (header, sections with mrkdwn and fields, dividers, context lines, buttons): Gatehouse's rendering of
// what it sends, not a screenshot taken in Slack. Run by `npm run screenshots` (scripts/lighthouse.ts), or alone:
// `npx tsx scripts/notification-pictures.ts` (Debian's Chromium, CHROMIUM_PATH).
import path from "node:path";

import { chromium, type Browser } from "@playwright/test";

import { renderMail } from "@/lib/notifications/email";
import type { NotificationMessage } from "@/lib/notifications/message";
import { slackPayload } from "@/lib/notifications/slack";
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

// ---------------------------------------------------------------------------------------------------------
// A Slack-like preview of a Block Kit payload: only the blocks and elements slack.ts sends (header, section with
// mrkdwn text and fields, divider, context, actions with link buttons); anything else is named, never dropped
// silently. Slack's mrkdwn escapes &, < and > as HTML does, so its text goes into the page as it is, once its
// links (<url|text>) and its *bold*, _italic_, ~strike~ and `code` are turned into elements. Emoji are drawn as
// Slack draws them, as pictures (here: the three coloured circles the sender uses), since the machine that makes
// the pictures has no colour emoji font.

type Block = Record<string, unknown>;
interface TextObject {
  type: "plain_text" | "mrkdwn";
  text: string;
}

const EMOJI: Record<string, string> = { "🔴": "#e01e5a", "🟢": "#2eb67d", "🔵": "#1d9bd1" };
const escapeHtml = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
const emoji = (html: string) =>
  html.replace(/🔴|🟢|🔵/gu, (glyph) => `<span class="emoji" style="background:${EMOJI[glyph]}"></span>`);

/** Slack's mrkdwn (already escaped for &, < and >) as HTML. */
export function mrkdwnToHtml(text: string): string {
  const styled = (part: string) =>
    part
      .replace(/\*([^*\n]+)\*/g, "<strong>$1</strong>")
      .replace(/(^|[\s(])_([^_\n]+)_/g, "$1<em>$2</em>")
      .replace(/~([^~\n]+)~/g, "<s>$1</s>")
      .replace(/`([^`\n]+)`/g, "<code>$1</code>");
  const html = text
    .split(/(<[^<>]+>)/)
    .map((part) => {
      const link = /^<([^|<>]+)(?:\|([^<>]+))?>$/.exec(part);
      if (!link) return styled(part.replace(/"/g, "&quot;"));
      const [, url, label] = link;
      return `<a href="${url!.replace(/"/g, "&quot;")}">${styled(label ?? url!)}</a>`;
    })
    .join("")
    .replace(/\n/g, "<br>");
  return emoji(html);
}

const textHtml = (object: TextObject) =>
  object.type === "mrkdwn" ? mrkdwnToHtml(object.text) : emoji(escapeHtml(object.text));

function blockHtml(block: Block): string {
  switch (block.type) {
    case "header":
      return `<div class="header">${textHtml(block.text as TextObject)}</div>`;
    case "divider":
      return '<hr class="divider">';
    case "section": {
      const fields = (block.fields as TextObject[] | undefined) ?? [];
      return `<div class="section">${block.text ? `<div class="text">${textHtml(block.text as TextObject)}</div>` : ""}${
        fields.length ? `<div class="fields">${fields.map((f) => `<div>${textHtml(f)}</div>`).join("")}</div>` : ""
      }</div>`;
    }
    case "context":
      return `<div class="context">${(block.elements as TextObject[]).map((e) => `<span>${textHtml(e)}</span>`).join("")}</div>`;
    case "actions":
      return `<div class="actions">${(block.elements as Array<{ type: string; text: TextObject; url?: string }>)
        .map((e) =>
          e.type === "button"
            ? `<a class="button" href="${escapeHtml(e.url ?? "#")}">${textHtml(e.text)}</a>`
            : `<span class="unknown">[${escapeHtml(e.type)}]</span>`,
        )
        .join("")}</div>`;
    default:
      return `<div class="unknown">[block ${escapeHtml(String(block.type))}]</div>`;
  }
}

const SLACK_CSS = `
body{margin:0;padding:16px;background:#fff;font:15px/1.47 Lato,"Helvetica Neue",Helvetica,Arial,sans-serif;color:#1d1c1d}
.message{display:flex;gap:8px;max-width:600px}
.avatar{flex:none;width:36px;height:36px;border-radius:6px;background:#0b4f6c;color:#fff;font-weight:700;display:grid;place-items:center}
.who{font-weight:900}.app{font-size:10px;font-weight:700;color:#616061;background:#e8e8e8;border-radius:2px;padding:1px 3px;margin:0 4px}
.when{font-size:12px;color:#616061}
.header{font-size:18px;font-weight:900;margin:4px 0}
.section{margin:8px 0}.fields{display:grid;grid-template-columns:1fr 1fr;gap:8px 16px;margin-top:8px}
.context{font-size:13px;color:#616061;margin:4px 0}.context span+span{margin-left:8px}
.divider{border:0;border-top:1px solid #dddddd;margin:12px 0}
.actions{margin:8px 0}.button{display:inline-block;border:1px solid #bbbabb;border-radius:4px;padding:3px 12px;font-size:13px;font-weight:700;color:#1d1c1d;text-decoration:none}
a{color:#1264a3;text-decoration:none}
.emoji{display:inline-block;width:14px;height:14px;border-radius:50%;vertical-align:-2px}
.unknown{color:#e01e5a}`;

/** A Block Kit payload as a Slack-like HTML page: the app's name, its fallback text aside, its blocks in order. */
export function slackPreview(payload: { text: string; blocks: Block[] }, at: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(payload.text)}</title><style>${SLACK_CSS}</style></head><body><div class="message"><div class="avatar" aria-hidden="true">G</div><div><div><span class="who">Gatehouse</span><span class="app">APP</span><span class="when">${escapeHtml(at)}</span></div>${payload.blocks
    .map(blockHtml)
    .join("")}</div></div></body></html>`;
}

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

  // The same three merged regressions, as the Slack sender sends them to a channel.
  await page.setContent(slackPreview(slackPayload(REGRESSIONS, ORIGIN), "10:17"));
  await page.locator(".message").screenshot({ path: path.join(PICTURES, "notification-slack-message.png") });
  log("docs/images/notification-slack-message.png");
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
