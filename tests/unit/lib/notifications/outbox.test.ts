// When a held message may go: after the merge window, and for a person after his quiet hours in his zone; a
// channel has none. (Merging rows is in rules.test.ts, on both stores.)
import { describe, expect, it } from "vitest";

import { notBeforeFor } from "@/lib/notifications/outbox";
import type { Recipient } from "@/lib/notifications/recipients";

const person = (zone: string): Recipient => ({
  kind: "user",
  id: "p",
  channelKind: "email",
  zone,
  quietStart: 22 * 60,
  quietEnd: 7 * 60,
});

describe("notBeforeFor", () => {
  const at = new Date("2026-11-27T22:30:00Z"); // 23:30 in Berlin, 14:30 in Los Angeles
  it("a person inside his quiet hours: their end; outside: the merge window", () => {
    expect(notBeforeFor(person("Europe/Berlin"), at, 120_000).toISOString()).toBe("2026-11-28T06:00:00.000Z");
    expect(notBeforeFor(person("America/Los_Angeles"), at, 120_000).toISOString()).toBe("2026-11-27T22:32:00.000Z");
  });
  it("a channel: the merge window only", () => {
    const channel: Recipient = {
      kind: "channel",
      id: "c",
      channelKind: "teams",
      zone: null,
      quietStart: 0,
      quietEnd: 1439,
    };
    expect(notBeforeFor(channel, at, 0).toISOString()).toBe(at.toISOString());
  });
});
