// The weekly digest on SQLite and PostgreSQL: it lists the week (results by project, worse, better, purchase checks,
// open alerts), is sent at each subscriber's day and hour in his zone, once per ISO week, and not to whom turned it off.
import { describe, expect, it } from "vitest";

import { buildDigest, sendDueDigests } from "@/lib/notifications/digest";
import { digestWeekDue, isoWeek } from "@/lib/notifications/digest-due";
import { createAlerts } from "@/lib/reports/alerts";
import { recordResults, type SeenResult } from "@/lib/reports/history";

import { addChannel, addPerson, deliveries, rulesOn, setMailServer } from "@/tests/support/notifications";
import { bothBackends, useStore, type Backend } from "@/tests/support/store-backends";

const BACKENDS = bothBackends();

const result = (report_id: number, value: SeenResult["result"], at: string, project = "acme.io"): SeenResult => ({
  report_id,
  url: `https://${project}/page-${report_id}`,
  project,
  result: value,
  generated_at: new Date(at).toISOString(),
});

describe("isoWeek, digestWeekDue", () => {
  it("names ISO weeks, across a year's end", () => {
    expect([isoWeek("2026-11-28"), isoWeek("2027-01-01"), isoWeek("2026-12-28")]).toEqual([
      "2026-W48",
      "2026-W53",
      "2026-W53",
    ]);
  });
  it("is due from the hour of the day in the zone (Monday 09:00 in Berlin is 08:00Z)", () => {
    expect(digestWeekDue(new Date("2026-11-30T07:59:00Z"), "Europe/Berlin", 1, 9)).toBeNull();
    expect(digestWeekDue(new Date("2026-11-30T08:00:00Z"), "Europe/Berlin", 1, 9)).toBe("2026-W49");
    expect(digestWeekDue(new Date("2026-11-30T08:00:00Z"), "America/Los_Angeles", 1, 9)).toBeNull();
  });
});

describe.each<Backend>(BACKENDS)("the digest on $name", (backend) => {
  const store = useStore(backend);

  async function aWeek(db: Parameters<typeof buildDigest>[0]): Promise<void> {
    // Before the week: 1 good, 2 bad. In it: 1 went bad (an alert), 2 went good, 3 new and decent.
    await recordResults(db, [result(1, "good", "2026-11-20T10:00Z"), result(2, "bad", "2026-11-20T10:00Z")], "list");
    const changes = await recordResults(
      db,
      [
        result(1, "bad", "2026-11-25T10:00Z"),
        result(2, "good", "2026-11-26T10:00Z"),
        result(3, "decent", "2026-11-26T10:00Z", "beta.io"),
      ],
      "regenerate",
    );
    await createAlerts(db, changes);
    await db
      .insertInto("purchase_checks")
      .values(
        ["valid", "valid", "invalid"].map((outcome, i) => ({
          checked_at: `2026-11-27T10:0${i}:00.000Z`,
          user_id: null,
          user_email: null,
          code_hash: `h${i}`,
          code_last4: "abcd",
          outcome,
          reason: null,
          item_id: null,
          item_name: null,
          license_type: null,
          supported_until: null,
          source: "single",
          bulk_job_id: null,
          request_id: null,
        })),
      )
      .execute();
  }

  it("lists the week: results by project, what got worse and better, the checks by outcome, open alerts", async () => {
    const { db } = store();
    await aWeek(db);
    const digest = await buildDigest(db, new Date("2026-11-30T09:00:00Z"), true);
    expect(digest.topic).toBe("digest");
    expect(digest.title).toBe("Your week in Gatehouse: 1 got worse, 1 got better, 1 open alerts");
    expect(Object.fromEntries(digest.sections!.map((s) => [s.heading, s.lines.map((l) => l.text)]))).toEqual({
      "Results by project": ["acme.io: 1 good, 0 decent, 1 bad", "beta.io: 0 good, 1 decent, 0 bad"],
      "Got worse": ["acme.io/page-1: good → bad"],
      "Got better": ["acme.io/page-2: bad → good"],
      "Purchase checks": ["3 checks: 1 invalid, 2 valid"],
      "Open alerts": ["acme.io/page-1: good → bad"],
    });
    const forViewer = await buildDigest(db, new Date("2026-11-30T09:00:00Z"), false);
    expect(forViewer.sections!.map((s) => s.heading)).not.toContain("Purchase checks");
  });

  it("is sent at each one's day and hour in his zone, once a week, not to whom turned it off", async () => {
    const { db } = store();
    await aWeek(db);
    await setMailServer(db);
    await addPerson(db, "berlin", "editor", { timeZone: "Europe/Berlin" });
    await addPerson(db, "la", "viewer", { timeZone: "America/Los_Angeles" });
    await addPerson(db, "off", "editor");
    await db
      .insertInto("notification_preferences")
      .values({ user_id: "off", digest_enabled: 0, updated_at: "2026-11-01T00:00:00Z" })
      .execute();
    await addChannel(db, "team", { timeZone: "Europe/Berlin" });
    const { deps, setNow } = rulesOn(db, "2026-11-30T08:00:00Z");
    expect(await sendDueDigests(deps)).toBe(2);
    expect(await sendDueDigests(deps)).toBe(0);
    setNow("2026-11-30T17:00:00Z"); // 09:00 in Los Angeles
    expect(await sendDueDigests(deps)).toBe(1);
    const rows = await deliveries(db);
    expect(rows.map((r) => `${r.recipient_id} ${r.channel_kind} ${r.topic}`).sort()).toEqual([
      "berlin email digest",
      "la email digest",
      "team slack digest",
    ]);
    const la = rows.find((r) => r.recipient_id === "la")!.messages[0]!;
    expect(la.sections!.map((s) => s.heading)).not.toContain("Purchase checks");
    setNow("2026-12-07T08:00:00Z"); // the next week
    expect(await sendDueDigests(deps)).toBe(2);
  });

  it("is sent late at the next tick of its week when none ran at its hour, never twice, and not in the next week", async () => {
    const { db } = store();
    await setMailServer(db);
    await addPerson(db, "monday", "editor", { timeZone: "Europe/Berlin" }); // Monday 09:00, the default
    await addPerson(db, "saturday", "editor", { timeZone: "Europe/Berlin" });
    await db
      .insertInto("notification_preferences")
      .values({ user_id: "saturday", digest_day: 6, digest_hour: 10, updated_at: "2026-11-01T00:00:00Z" })
      .execute();
    const weeks = async (id: string) =>
      (
        await db
          .selectFrom("notification_digests")
          .select("week")
          .where("subscriber_id", "=", id)
          .orderBy("week")
          .execute()
      ).map((row) => row.week);
    const dueAt = async (id: string) =>
      (
        await db
          .selectFrom("notification_digest_due")
          .select("due_at")
          .where("subscriber_id", "=", id)
          .executeTakeFirstOrThrow()
      ).due_at;

    const { deps, setNow } = rulesOn(db, "2026-11-30T07:00:00Z"); // Monday of W49, 08:00 in Berlin
    expect(await sendDueDigests(deps)).toBe(0);
    expect(await dueAt("monday")).toBe("2026-11-30T08:00:00.000Z");
    expect(await dueAt("saturday")).toBe("2026-12-05T09:00:00.000Z");
    // No tick on Monday at 09:00 or on Tuesday: Wednesday's first tick sends Monday's digest, late.
    setNow("2026-12-02T10:00:00Z");
    expect(await sendDueDigests(deps)).toBe(1);
    expect(await weeks("monday")).toEqual(["2026-W49"]);
    expect(await dueAt("monday")).toBe("2026-12-07T08:00:00.000Z");
    // Never twice in its week, even when a tick finds his row due again (his settings saved, another instance).
    await db.updateTable("notification_digest_due").set({ due_at: "2026-12-02T10:00:00.000Z" }).execute();
    setNow("2026-12-06T22:00:00Z"); // Sunday 23:00 in Berlin, still W49; no tick ran on Saturday
    expect(await sendDueDigests(deps)).toBe(1); // Saturday's, late, on Sunday
    expect(await weeks("monday")).toEqual(["2026-W49"]);
    expect(await weeks("saturday")).toEqual(["2026-W49"]);
    expect(await sendDueDigests(deps)).toBe(0);

    // A week without a tick from Saturday to its end: its digest is not sent in the next week.
    setNow("2026-12-07T09:00:00Z"); // Monday of W50, 10:00 in Berlin
    expect(await sendDueDigests(deps)).toBe(1); // Monday's own, W50
    setNow("2026-12-14T07:00:00Z"); // the Monday after: W50's Saturday passed without a tick
    expect(await sendDueDigests(deps)).toBe(0);
    expect(await weeks("saturday")).toEqual(["2026-W49"]);
    expect(await dueAt("saturday")).toBe("2026-12-19T09:00:00.000Z");
    expect(await weeks("monday")).toEqual(["2026-W49", "2026-W50"]);
  });

  it("is not written to people without a mail server (it could only fail), and not for a week that began before them", async () => {
    const { db } = store();
    await addPerson(db, "old", "editor"); // added 2026-11-01
    await addChannel(db, "team");
    const { deps, setNow } = rulesOn(db, "2026-11-30T10:00:00Z"); // Monday of W49, after 09:00 UTC
    // No mail server: the channel's digest goes, the person's is not written.
    expect(await sendDueDigests(deps)).toBe(1);
    expect((await deliveries(db)).map((r) => r.recipient_id)).toEqual(["team"]);

    // With one, next week: he gets his; someone added after that week's digest time waits for the week after.
    await setMailServer(db);
    await db.updateTable("users").set({ created_at: "2026-12-07T09:30:00.000Z" }).where("id", "=", "old").execute();
    await addPerson(db, "new", "editor");
    await db.updateTable("users").set({ created_at: "2026-11-01T00:00:00.000Z" }).where("id", "=", "new").execute();
    setNow("2026-12-07T10:00:00Z");
    await db.updateTable("notification_digest_due").set({ due_at: "2026-12-07T10:00:00.000Z" }).execute();
    await sendDueDigests(deps);
    const people = (await deliveries(db)).filter((r) => r.channel_kind === "email").map((r) => r.recipient_id);
    expect(people).toEqual(["new"]);
  });
});
