// The tick's job: it queues the next slot's tick first, then reads the results, the upstreams due and the digests.
import { describe, expect, it } from "vitest";

import { notificationTickJob, notificationTicks, runTick } from "@/lib/notifications/tick";
import { recordResults } from "@/lib/reports/history";

import { addPerson, deliveries, rulesOn, subscribe } from "@/tests/support/notifications";
import { sqliteBackend, useStore } from "@/tests/support/store-backends";

describe("notificationTickJob", () => {
  it("one job per slot, its id the slot's start", () => {
    expect(notificationTickJob(65_000, 30_000)).toEqual({
      payload: { slot: 60_000 },
      options: { id: "notification-tick-60000", runAt: new Date(60_000) },
    });
  });
});

describe("the tick", () => {
  const store = useStore(sqliteBackend);

  it("queues the next tick, then reads the results recorded since the last (a regression that lasted)", async () => {
    const { db } = store();
    const { deps } = rulesOn(db, "2026-11-28T12:00:00Z");
    await addPerson(db, "ed", "editor");
    await subscribe(db, "user", "ed", "report.regressed");
    // His digest comes on Sundays at 18:00: not yet due on this Saturday.
    await db
      .insertInto("notification_preferences")
      .values({ user_id: "ed", digest_day: 0, digest_hour: 18, updated_at: "2026-11-01T00:00:00Z" })
      .execute();
    const at = (minute: number) => `2026-11-28T1${minute}:00:00.000Z`;
    const seen = (minute: number, result: "good" | "bad") =>
      recordResults(
        db,
        [{ report_id: 1, url: "https://acme.io/", project: "acme.io", result, generated_at: at(minute) }],
        "schedule",
      );
    await seen(0, "good");
    await seen(1, "bad");
    await seen(2, "bad");
    const queued: unknown[] = [];
    const kind = notificationTicks({
      rules: async () => deps,
      queueTick: async (payload, options) => void queued.push({ payload, options }),
      tickMs: () => 30_000,
    });
    await expect(kind.handle({ slot: 0 }, { id: "t", retries: 0 })).resolves.toEqual({ kind: "done" });
    expect(queued).toHaveLength(1);
    expect((await deliveries(db)).map((d) => d.topic)).toEqual(["report.regressed"]);
    // Read once: the next tick finds nothing new (and his digest is not due before Sunday 18:00).
    expect(await runTick(deps)).toEqual({ results: 0, conditions: 0, digests: 0 });
  });
});
