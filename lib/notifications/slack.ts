// A delivery's messages as a Slack incoming webhook takes them: `text` (the notification's fallback, one line)
// and Block Kit `blocks` — a header with the headline, each message as a section (its title in bold and its text),
// its facts as fields, a context line with when it began, and a button to the page
// (https://api.slack.com/messaging/webhooks, https://api.slack.com/reference/block-kit/blocks).
import { absoluteLink, isOpenable } from "./links";
import { summaryOf, type NotificationMessage } from "./message";

/** Block Kit's limits: 50 blocks a message, 150 characters a header, 3000 a section's text, 10 fields. */
const MAX_BLOCKS = 50;
const cut = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);
/** Slack's mrkdwn needs &, < and > escaped. */
const escape = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const TONE = { bad: "🔴", good: "🟢", info: "🔵" } as const;

type Block = Record<string, unknown>;

export function slackPayload(
  messages: readonly NotificationMessage[],
  publicOrigin: string | null,
): { text: string; blocks: Block[] } {
  const headline = summaryOf(messages);
  const blocks: Block[] = [{ type: "header", text: { type: "plain_text", text: cut(headline, 150), emoji: true } }];
  for (const message of messages) {
    if (blocks.length > MAX_BLOCKS - 5) break;
    if (messages.length > 1) blocks.push({ type: "divider" });
    const link = absoluteLink(message.link, publicOrigin);
    blocks.push({
      type: "section",
      text: {
        type: "mrkdwn",
        text: cut(`${TONE[message.tone]} *${escape(message.title)}*\n${escape(message.text)}`, 3000),
      },
      ...(message.facts?.length && {
        fields: message.facts
          .slice(0, 10)
          .map((fact) => ({ type: "mrkdwn", text: cut(`*${escape(fact.label)}*\n${escape(fact.value)}`, 2000) })),
      }),
    });
    for (const section of message.sections ?? []) {
      if (blocks.length > MAX_BLOCKS - 3) break;
      const lines = section.lines.map((line) => {
        const target = line.link ? absoluteLink(line.link, publicOrigin) : null;
        return target && isOpenable(target) ? `• <${target}|${escape(line.text)}>` : `• ${escape(line.text)}`;
      });
      blocks.push({
        type: "section",
        text: { type: "mrkdwn", text: cut(`*${escape(section.heading)}*\n${lines.join("\n") || "—"}`, 3000) },
      });
    }
    blocks.push({
      type: "context",
      elements: [{ type: "mrkdwn", text: `Since ${message.since.replace("T", " ").slice(0, 16)} UTC · Gatehouse` }],
    });
    if (isOpenable(link))
      blocks.push({
        type: "actions",
        elements: [{ type: "button", text: { type: "plain_text", text: "Open in Gatehouse" }, url: link }],
      });
    else blocks.push({ type: "context", elements: [{ type: "mrkdwn", text: `In Gatehouse: ${escape(link)}` }] });
  }
  return { text: headline, blocks };
}
