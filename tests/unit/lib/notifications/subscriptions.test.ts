// Subscriptions and preferences in the store (SQLite and PostgreSQL): replaced whole, duplicates once, read back in
// the topics' order; preferences' defaults until saved, quiet hours as HH:MM.
import { describe, expect, it } from "vitest";

import {
  channelExists,
  getPreferences,
  getSubscriptions,
  setPreferences,
  setSubscriptions,
} from "@/lib/notifications/subscriptions";

import { addChannel } from "@/tests/support/notifications";
import { bothBackends, useStore, type Backend } from "@/tests/support/store-backends";

const BACKENDS = bothBackends();

describe.each<Backend>(BACKENDS)("subscriptions on $name", (backend) => {
  const store = useStore(backend);

  it("replaces a subscriber's list whole, duplicates once, others untouched", async () => {
    const { db } = store();
    await setSubscriptions(db, "user", "b", [{ topic: "upstream.down", project: null, rule: null }]);
    const saved = await setSubscriptions(db, "user", "a", [
      { topic: "upstream.up", project: null, rule: null },
      { topic: "report.regressed", project: "acme.io", rule: "to_bad" },
      { topic: "upstream.up", project: null, rule: null },
    ]);
    expect(saved).toEqual([
      { topic: "report.regressed", project: "acme.io", rule: "to_bad" },
      { topic: "upstream.up", project: null, rule: null },
    ]);
    expect(await setSubscriptions(db, "user", "a", [])).toEqual([]);
    expect(await getSubscriptions(db, "user", "b")).toHaveLength(1);
  });

  it("preferences: the defaults, then what was saved, in the person's zone", async () => {
    const { db } = store();
    const user = { id: "p", timeZone: null };
    expect(await getPreferences(db, user)).toEqual({
      email_enabled: true,
      quiet_hours: null,
      digest: { enabled: true, day: 1, hour: 9 },
      time_zone: "UTC",
      time_zone_source: "default",
    });
    const body = {
      email_enabled: false,
      quiet_hours: { start: "22:30", end: "06:45" },
      digest: { enabled: false, day: 0, hour: 18 },
    };
    expect(await setPreferences(db, { id: "p", timeZone: "Asia/Tokyo" }, body)).toEqual({
      ...body,
      time_zone: "Asia/Tokyo",
      time_zone_source: "picked",
    });
    const row = await db.selectFrom("notification_preferences").selectAll().executeTakeFirstOrThrow();
    expect([row.quiet_start, row.quiet_end]).toEqual([22 * 60 + 30, 6 * 60 + 45]);
  });

  it("channelExists", async () => {
    const { db } = store();
    await addChannel(db, "team");
    expect([await channelExists(db, "team"), await channelExists(db, "nope")]).toEqual([true, false]);
  });
});
