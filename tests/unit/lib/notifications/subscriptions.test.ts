// Subscriptions and preferences in the store (SQLite and PostgreSQL): replaced whole, duplicates once, read back in
// the topics' order; preferences' defaults until saved, quiet hours as HH:MM.
import { describe, expect, it } from "vitest";

import {
  channelExists,
  forgetPeople,
  getPreferences,
  getSubscriptions,
  setPreferences,
  setSubscriptions,
} from "@/lib/notifications/subscriptions";

import { insertDelivery } from "@/lib/notifications/deliveries";
import { digestDueNow } from "@/lib/notifications/digest-due";
import type { Db } from "@/lib/db";

import { addChannel, addPerson } from "@/tests/support/notifications";
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

  it("forgets a person removed: his subscriptions, preferences, digests and deliveries (held and pending too)", async () => {
    const { db } = store();
    const rowsOf = async (db: Db, id: string) => ({
      subscriptions: (await getSubscriptions(db, "user", id)).length,
      preferences: (
        await db.selectFrom("notification_preferences").select("user_id").where("user_id", "=", id).execute()
      ).length,
      digests: (await db.selectFrom("notification_digests").select("week").where("subscriber_id", "=", id).execute())
        .length,
      due: (await db.selectFrom("notification_digest_due").select("due_at").where("subscriber_id", "=", id).execute())
        .length,
      deliveries: (
        await db.selectFrom("notification_deliveries").select("status").where("recipient_id", "=", id).execute()
      ).length,
      attempts: (
        await db
          .selectFrom("notification_attempts")
          .innerJoin("notification_deliveries", "notification_deliveries.id", "notification_attempts.delivery_id")
          .select("notification_attempts.id")
          .where("notification_deliveries.recipient_id", "=", id)
          .execute()
      ).length,
    });
    const now = new Date("2026-12-02T10:00:00Z");
    for (const id of ["gone", "stays"]) {
      await addPerson(db, id, "editor");
      await setSubscriptions(db, "user", id, [{ topic: "report.regressed", project: "acme.io", rule: null }]);
      await setPreferences(
        db,
        { id, timeZone: null },
        { email_enabled: true, quiet_hours: null, digest: { enabled: true, day: 1, hour: 9 } },
        now,
      );
      await digestDueNow(db, "user", id, now);
      await db
        .insertInto("notification_digests")
        .values({ subscriber_kind: "user", subscriber_id: id, week: "2026-W49", sent_at: now.toISOString() })
        .execute();
      for (const status of ["held", "pending", "sent"] as const) {
        const delivery = await insertDelivery(db, {
          recipientKind: "user",
          recipientId: id,
          channelKind: "email",
          topic: "report.regressed",
          messages: [],
          status: status === "held" ? "held" : "pending",
          notBefore: now,
        });
        if (status === "sent")
          await db.updateTable("notification_deliveries").set({ status }).where("id", "=", delivery).execute();
        await db
          .insertInto("notification_attempts")
          .values({ id: `${delivery}-1`, delivery_id: delivery, at: now.toISOString(), ok: 0, error: "not sent: busy" })
          .execute();
      }
    }
    const all = { subscriptions: 1, preferences: 1, digests: 1, due: 1, deliveries: 3, attempts: 3 };
    expect(await rowsOf(db, "gone")).toEqual(all);
    await forgetPeople(db, ["gone"]);
    expect(await rowsOf(db, "gone")).toEqual({
      subscriptions: 0,
      preferences: 0,
      digests: 0,
      due: 0,
      deliveries: 0,
      attempts: 0,
    });
    expect(await rowsOf(db, "stays")).toEqual(all);
  });
});
