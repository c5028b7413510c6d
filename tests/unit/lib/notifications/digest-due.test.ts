// When a digest is due: from its day and hour (in the subscriber's zone) to the end of its ISO week, its instant
// this week or next, also on the days the clock changes; and the stored rows (SQLite and PostgreSQL): the people
// and channels new since the last look found once, the rows due read, a change of settings making a row due now,
// a subscriber removed forgotten.
import { describe, expect, it } from "vitest";

import { createChannel, deleteChannel, updateChannel } from "@/lib/notifications/channels";
import {
  digestDueNow,
  digestInstant,
  digestWeekDue,
  dueSubscribers,
  nextDigestDue,
  setDigestDue,
} from "@/lib/notifications/digest-due";
import { setPreferences } from "@/lib/notifications/subscriptions";

import { addPerson } from "@/tests/support/notifications";
import { bothBackends, useStore, type Backend } from "@/tests/support/store-backends";

const settings = { allowPrivate: true, sealKey: "a root key of at least thirty-two characters", publicOrigin: null };

describe("digestWeekDue, digestInstant, nextDigestDue", () => {
  it("is due from the day and hour to the end of the ISO week, in the zone", () => {
    // Monday 09:00 in Berlin is 08:00Z; the week ends on Sunday at midnight in Berlin (23:00Z).
    expect(digestWeekDue(new Date("2026-11-30T07:59:00Z"), "Europe/Berlin", 1, 9)).toBeNull();
    expect(digestWeekDue(new Date("2026-12-03T12:00:00Z"), "Europe/Berlin", 1, 9)).toBe("2026-W49");
    expect(digestWeekDue(new Date("2026-12-06T22:59:00Z"), "Europe/Berlin", 1, 9)).toBe("2026-W49");
    expect(digestWeekDue(new Date("2026-12-06T23:00:00Z"), "Europe/Berlin", 1, 9)).toBeNull();
    // Sunday is the ISO week's last day: a Sunday digest is due on Sunday only.
    expect(digestWeekDue(new Date("2026-12-05T12:00:00Z"), "UTC", 0, 9)).toBeNull();
    expect(digestWeekDue(new Date("2026-12-06T09:00:00Z"), "UTC", 0, 9)).toBe("2026-W49");
  });

  it("names the instant of this week's day and hour, or next week's once it passed", () => {
    const wednesday = new Date("2026-12-02T10:00:00Z");
    expect(digestInstant(wednesday, "Europe/Berlin", 1, 9).toISOString()).toBe("2026-11-30T08:00:00.000Z");
    expect(nextDigestDue(wednesday, "Europe/Berlin", 1, 9).toISOString()).toBe("2026-12-07T08:00:00.000Z");
    expect(nextDigestDue(wednesday, "America/Los_Angeles", 5, 17).toISOString()).toBe("2026-12-05T01:00:00.000Z");
    // Sunday 29 March 2026 in Berlin skips 02:00–03:00: a digest set for 02:00 comes at 03:00 (01:00Z).
    expect(nextDigestDue(new Date("2026-03-25T00:00:00Z"), "Europe/Berlin", 0, 2).toISOString()).toBe(
      "2026-03-29T01:00:00.000Z",
    );
  });
});

describe.each<Backend>(bothBackends())("the digests' due rows on $name", (backend) => {
  const store = useStore(backend);
  const now = new Date("2026-12-02T10:00:00Z");

  it("finds the people and channels new since the last look once, reads the rows due, and forgets a channel removed", async () => {
    const { db } = store();
    await addPerson(db, "ann", "editor");
    const team = await createChannel(db, { kind: "email", name: "Ops", target: "ops@example.com" }, settings, null);
    const first = await dueSubscribers(db, now);
    expect(first.map((s) => `${s.kind} ${s.id}`).sort()).toEqual([`channel ${team.id}`, "user ann"]);
    await setDigestDue(db, "user", "ann", new Date("2026-12-07T09:00:00Z"));
    await setDigestDue(db, "channel", team.id, new Date("2026-12-07T09:00:00Z"));
    expect(await dueSubscribers(db, now)).toEqual([]);
    // A person new since: found (his created_at after the cursor), due at once.
    await addPerson(db, "bob", "viewer");
    expect(await dueSubscribers(db, now)).toEqual([{ kind: "user", id: "bob" }]);
    await deleteChannel(db, team.id);
    expect(await db.selectFrom("notification_digest_due").select("subscriber_id").execute()).toHaveLength(2);
  });

  it("makes a row due now when a person's preferences or a channel's settings change", async () => {
    const { db } = store();
    await addPerson(db, "ann", "editor");
    const team = await createChannel(db, { kind: "email", name: "Ops", target: "ops@example.com" }, settings, null);
    await dueSubscribers(db, now);
    const later = new Date("2026-12-07T09:00:00Z");
    await setDigestDue(db, "user", "ann", later);
    await setDigestDue(db, "channel", team.id, later);
    await setPreferences(
      db,
      { id: "ann", timeZone: null },
      { email_enabled: true, quiet_hours: null, digest: { enabled: true, day: 3, hour: 11 } },
      now,
    );
    expect(await dueSubscribers(db, now)).toEqual([{ kind: "user", id: "ann" }]);
    await setDigestDue(db, "user", "ann", later);
    await updateChannel(db, team.id, { digest_hour: 7 }, settings, now);
    expect(await dueSubscribers(db, now)).toEqual([{ kind: "channel", id: team.id }]);
    await digestDueNow(db, "user", "ann", now);
    expect((await dueSubscribers(db, now)).map((s) => s.kind).sort()).toEqual(["channel", "user"]);
  });
});
