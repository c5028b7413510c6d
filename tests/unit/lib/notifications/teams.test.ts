import { describe, expect, it } from "vitest";

import { teamsCard, teamsPayload } from "@/lib/notifications/teams";

import { digest, worse } from "./fixtures";

describe("teamsPayload", () => {
  it("is a message with one Adaptive Card 1.4 attachment: text blocks, a fact set and an OpenUrl action", () => {
    const payload = teamsPayload([worse("pricing")], "https://portal.example.com") as {
      type: string;
      attachments: Array<{ contentType: string; content: Record<string, unknown> }>;
    };
    expect(payload.type).toBe("message");
    expect(payload.attachments).toHaveLength(1);
    expect(payload.attachments[0]!.contentType).toBe("application/vnd.microsoft.card.adaptive");
    const card = payload.attachments[0]!.content as { body: Array<Record<string, unknown>>; actions: unknown[] };
    expect(card).toMatchObject({ type: "AdaptiveCard", version: "1.4" });
    expect(card.body.map((element) => element.type)).toEqual([
      "TextBlock",
      "TextBlock",
      "TextBlock",
      "FactSet",
      "TextBlock",
    ]);
    expect(card.body[3]).toEqual({ type: "FactSet", facts: [{ title: "Project", value: "acme.io" }] });
    expect(card.actions).toEqual([
      { type: "Action.OpenUrl", title: "Open in Gatehouse", url: "https://portal.example.com/reports/7" },
    ]);
  });

  it("names merged repeats, and has no action without PUBLIC_ORIGIN", () => {
    const card = teamsCard([worse("pricing"), worse("about")], null) as {
      body: Array<{ text?: string }>;
      actions?: unknown;
    };
    expect(card.body[0]!.text).toBe("acme.io/pricing went from good to bad, and 1 more page of acme.io");
    expect(card.actions).toBeUndefined();
    expect(card.body.some((element) => element.text?.includes("In Gatehouse: /reports/7"))).toBe(true);
  });

  it("gives each of merged messages its own button", () => {
    const card = teamsCard([worse("pricing"), worse("about")], "https://portal.example.com") as {
      body: Array<{ type: string; actions?: unknown }>;
      actions?: unknown;
    };
    expect(card.actions).toBeUndefined();
    expect(card.body.filter((element) => element.type === "ActionSet").map((element) => element.actions)).toEqual([
      [{ type: "Action.OpenUrl", title: "Open in Gatehouse", url: "https://portal.example.com/reports/7" }],
      [{ type: "Action.OpenUrl", title: "Open in Gatehouse", url: "https://portal.example.com/reports/5" }],
    ]);
  });

  it("lists a digest's sections, each line linked", () => {
    const card = teamsCard([digest], "https://portal.example.com") as { body: Array<{ text?: string }> };
    expect(card.body.map((element) => element.text)).toContain(
      "- [acme.io/pricing: good → bad](https://portal.example.com/reports/3)",
    );
  });
});
