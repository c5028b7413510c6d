// A delivery's messages as a Microsoft Teams incoming webhook (Workflows, or a connector) takes them: a message
// with one attachment, an Adaptive Card 1.4 — the headline, each message's title and text, its facts as a
// FactSet, a digest's sections, and an Action.OpenUrl to the page
// (https://learn.microsoft.com/microsoftteams/platform/webhooks-and-connectors/how-to/connectors-using).
import { absoluteLink, isOpenable } from "./links";
import { summaryOf, type NotificationMessage } from "./message";

const COLOR = { bad: "Attention", good: "Good", info: "Accent" } as const;

type Element = Record<string, unknown>;

export function teamsCard(messages: readonly NotificationMessage[], publicOrigin: string | null): Element {
  const body: Element[] = [
    { type: "TextBlock", text: summaryOf(messages), size: "Large", weight: "Bolder", wrap: true },
  ];
  const actions: Element[] = [];
  for (const message of messages) {
    const link = absoluteLink(message.link, publicOrigin);
    body.push(
      {
        type: "TextBlock",
        text: message.title,
        weight: "Bolder",
        color: COLOR[message.tone],
        wrap: true,
        separator: messages.length > 1,
        spacing: "Medium",
      },
      { type: "TextBlock", text: message.text, wrap: true },
    );
    if (message.facts?.length)
      body.push({ type: "FactSet", facts: message.facts.map((fact) => ({ title: fact.label, value: fact.value })) });
    for (const section of message.sections ?? []) {
      body.push({ type: "TextBlock", text: section.heading, weight: "Bolder", wrap: true, spacing: "Medium" });
      for (const line of section.lines) {
        const target = line.link ? absoluteLink(line.link, publicOrigin) : null;
        body.push({
          type: "TextBlock",
          text: target && isOpenable(target) ? `- [${line.text}](${target})` : `- ${line.text}`,
          wrap: true,
          spacing: "None",
        });
      }
    }
    body.push({
      type: "TextBlock",
      text: `Since ${message.since.replace("T", " ").slice(0, 16)} UTC${isOpenable(link) ? "" : ` · In Gatehouse: ${link}`}`,
      isSubtle: true,
      size: "Small",
      wrap: true,
    });
    // One message: the card's action; several: each its own button under it.
    const open = { type: "Action.OpenUrl", title: "Open in Gatehouse", url: link };
    if (isOpenable(link)) {
      if (messages.length === 1) actions.push(open);
      else body.push({ type: "ActionSet", actions: [open] });
    }
  }
  return {
    type: "AdaptiveCard",
    $schema: "http://adaptivecards.io/schemas/adaptive-card.json",
    version: "1.4",
    body,
    ...(actions.length > 0 && { actions }),
  };
}

/** The body POSTed to the webhook: a message whose one attachment is the card. */
export function teamsPayload(messages: readonly NotificationMessage[], publicOrigin: string | null): Element {
  return {
    type: "message",
    attachments: [
      {
        contentType: "application/vnd.microsoft.card.adaptive",
        contentUrl: null,
        content: teamsCard(messages, publicOrigin),
      },
    ],
  };
}
