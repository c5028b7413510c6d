import { describe, expect, it } from "vitest";

import { summaryOf, type NotificationMessage } from "@/lib/notifications/message";

const worse = (page: string): NotificationMessage => ({
  topic: "report.regressed",
  title: `acme.io/${page} went from good to bad`,
  text: "Its result dropped.",
  since: "2026-12-28T09:00:00.000Z",
  link: "/reports/1",
  tone: "bad",
  group: "acme.io",
});

describe("summaryOf", () => {
  it("is the title of one message", () => {
    expect(summaryOf([worse("pricing")])).toBe("acme.io/pricing went from good to bad");
  });

  it("names how many more repeats, in the singular for one, and their group", () => {
    expect(summaryOf([worse("pricing"), worse("blog")])).toBe(
      "acme.io/pricing went from good to bad, and 1 more page of acme.io",
    );
    expect(summaryOf([worse("pricing"), worse("blog"), worse("shop"), worse("about")])).toBe(
      "acme.io/pricing went from good to bad, and 3 more pages of acme.io",
    );
  });

  it("is empty for none", () => {
    expect(summaryOf([])).toBe("");
  });
});
