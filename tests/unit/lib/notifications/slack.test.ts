import { describe, expect, it } from "vitest";

import { slackPayload } from "@/lib/notifications/slack";

import { digest, worse } from "./fixtures";

describe("slackPayload", () => {
  it("is Block Kit: a header, the message as a section with its facts as fields, when, and a button", () => {
    const payload = slackPayload([worse("pricing")], "https://portal.example.com");
    expect(payload.text).toBe("acme.io/pricing went from good to bad");
    expect(payload.blocks.map((block) => block.type)).toEqual(["header", "section", "context", "actions"]);
    expect(payload.blocks[1]).toMatchObject({
      text: { type: "mrkdwn", text: expect.stringContaining("&lt;and&gt; stayed so for 2 results &amp; more") },
      fields: [{ type: "mrkdwn", text: "*Project*\nacme.io" }],
    });
    expect(payload.blocks[3]).toEqual({
      type: "actions",
      elements: [
        {
          type: "button",
          text: { type: "plain_text", text: "Open in Gatehouse" },
          url: "https://portal.example.com/reports/7",
        },
      ],
    });
  });

  it("names merged repeats in the headline and shows each; without PUBLIC_ORIGIN, the path instead of a button", () => {
    const payload = slackPayload([worse("pricing"), worse("about"), worse("blog")], null);
    expect(payload.text).toBe("acme.io/pricing went from good to bad, and 2 more pages of acme.io");
    expect(payload.blocks.filter((block) => block.type === "section")).toHaveLength(3);
    expect(payload.blocks.some((block) => block.type === "actions")).toBe(false);
    expect(JSON.stringify(payload.blocks)).toContain("In Gatehouse: /reports/5");
  });

  it("renders a digest's sections as linked lines", () => {
    const payload = slackPayload([digest], "https://portal.example.com");
    expect(JSON.stringify(payload.blocks)).toContain(
      "*Got worse*\\n• <https://portal.example.com/reports/3|acme.io/pricing: good → bad>",
    );
    expect(JSON.stringify(payload.blocks)).toContain("*Open alerts*\\n—");
  });
});
