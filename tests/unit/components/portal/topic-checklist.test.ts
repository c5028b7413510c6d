// A subscriber's topics as the checklist shows them and reads them back: a report topic for every project or for
// projects, with a rule; what the form cannot show kept as it is; "Only these projects" with none chosen refused.
import { describe, expect, it } from "vitest";

import { splitSubscriptions, subscriptionsFromForm } from "@/components/portal/topic-checklist";
import type { NotificationSubscription } from "@/lib/contract/notification-subscriptions";

const TOPICS = [
  { topic: "report.regressed", words: "A page's result got worse" },
  { topic: "report.recovered", words: "That page is back" },
  { topic: "upstream.down", words: "An upstream is down" },
] as const;

const sub = (
  topic: NotificationSubscription["topic"],
  project: string | null = null,
  rule: NotificationSubscription["rule"] = null,
) => ({
  topic,
  project,
  rule,
});

function form(entries: Array<[string, string]>): FormData {
  const data = new FormData();
  for (const [name, value] of entries) data.append(name, value);
  return data;
}

describe("splitSubscriptions", () => {
  it("shows every project or the projects of one rule, and keeps what it cannot show", () => {
    const { chosen, kept } = splitSubscriptions([
      sub("report.regressed", "b.io", "to_bad"),
      sub("report.regressed", "a.io", "to_bad"),
      sub("report.regressed", "c.io", "any"),
      sub("report.recovered"),
      sub("report.recovered", "a.io"),
      sub("upstream.down"),
    ]);
    expect(Object.fromEntries(chosen)).toEqual({
      "report.regressed": { projects: ["a.io", "b.io"], rule: "to_bad" },
      "report.recovered": { projects: null, rule: null },
      "upstream.down": { projects: null, rule: null },
    });
    expect(kept).toEqual([sub("report.regressed", "c.io", "any"), sub("report.recovered", "a.io")]);
  });
});

describe("subscriptionsFromForm", () => {
  it("reads every project, chosen projects with a rule, plain topics, and adds what is kept", () => {
    const kept = [sub("report.recovered", "z.io", "any")];
    expect(
      subscriptionsFromForm(
        form([
          ["topics", "report.regressed"],
          ["scope:report.regressed", "some"],
          ["project:report.regressed", "a.io"],
          ["project:report.regressed", "b.io"],
          ["rule:report.regressed", "to_bad"],
          ["topics", "report.recovered"],
          ["scope:report.recovered", "every"],
          ["rule:report.recovered", ""],
          ["topics", "upstream.down"],
          // An unchecked topic's fields are ignored.
          ["scope:nothing", "some"],
        ]),
        TOPICS,
        kept,
      ),
    ).toEqual({
      subscriptions: [
        sub("report.regressed", "a.io", "to_bad"),
        sub("report.regressed", "b.io", "to_bad"),
        sub("report.recovered"),
        sub("upstream.down"),
        ...kept,
      ],
    });
  });

  it("refuses “Only these projects” with none chosen, naming the topic", () => {
    expect(
      subscriptionsFromForm(
        form([
          ["topics", "report.regressed"],
          ["scope:report.regressed", "some"],
        ]),
        TOPICS,
        [],
      ),
    ).toEqual({ problem: "Choose a project for “A page's result got worse”, or every project." });
  });
});
