// The Slack preview of docs/notifications.md's picture: the exact payload lib/notifications/slack.ts sends, drawn
// block by block — the header, each section's mrkdwn (bold, links, the text's escapes kept), its fields, context
// lines and buttons — and a block it does not know named, never dropped.
import { describe, expect, it } from "vitest";

import { slackPayload } from "@/lib/notifications/slack";

import { mrkdwnToHtml, slackPreview } from "@/scripts/notification-pictures";

describe("mrkdwnToHtml", () => {
  it("turns links, bold, italic, strike and code into elements, and keeps Slack's escapes as HTML's", () => {
    expect(mrkdwnToHtml("*Got worse*\n• <https://g.example/reports/3|acme.io/a &amp; b: good → bad>")).toBe(
      '<strong>Got worse</strong><br>• <a href="https://g.example/reports/3">acme.io/a &amp; b: good → bad</a>',
    );
    expect(mrkdwnToHtml("_slow_ ~gone~ `p95` 1 &lt; 2 <https://x.example>")).toBe(
      '<em>slow</em> <s>gone</s> <code>p95</code> 1 &lt; 2 <a href="https://x.example">https://x.example</a>',
    );
  });
});

describe("slackPreview", () => {
  it("draws every block the sender makes: header, sections with fields, context, dividers and buttons", () => {
    const html = slackPreview(
      slackPayload(
        [
          {
            topic: "report.regressed",
            title: "acme.io/pricing went from good to bad",
            text: "It dropped <fast> & stayed so.",
            since: "2026-12-24T08:15:00.000Z",
            link: "/reports/412",
            tone: "bad",
            facts: [{ label: "Project", value: "acme.io" }],
            sections: [{ heading: "Pages", lines: [{ text: "acme.io/about", link: "/reports/413" }] }],
          },
          {
            topic: "upstream.up",
            title: "It answers again",
            text: "Back.",
            since: "2026-12-24T09:00:00.000Z",
            link: "/",
            tone: "good",
          },
        ],
        "https://g.example",
      ),
      "10:17",
    );
    expect(html).toContain('<div class="header">acme.io/pricing went from good to bad, and 1 more page</div>');
    expect(html).toContain(
      '<span class="emoji" style="background:#e01e5a"></span> <strong>acme.io/pricing went from good to bad</strong><br>It dropped &lt;fast&gt; &amp; stayed so.',
    );
    expect(html).toContain('<div class="fields"><div><strong>Project</strong><br>acme.io</div></div>');
    expect(html).toContain('<strong>Pages</strong><br>• <a href="https://g.example/reports/413">acme.io/about</a>');
    expect(html).toContain('<div class="context"><span>Since 2026-12-24 08:15 UTC · Gatehouse</span></div>');
    expect(html).toContain('<a class="button" href="https://g.example/reports/412">Open in Gatehouse</a>');
    expect(html.match(/<hr class="divider">/g)).toHaveLength(2);
    expect(html).not.toContain('class="unknown"');
    expect(slackPreview({ text: "x", blocks: [{ type: "image" }] }, "10:17")).toContain(
      '<div class="unknown">[block image]</div>',
    );
  });
});
