// The deliveries queue, run on every backend (tests/unit/lib/webhooks/deliveries.test.ts: SQLite;
// tests/unit/lib/db/postgres.test.ts): one delivery per subscribed endpoint, leases, claims fair per endpoint, the
// retry schedule, giving up, three days of failures disabling the endpoint, and "Send again".
import { describe, expect, it } from "vitest";

import type { Db } from "@/lib/db";
import {
  claimDueDeliveries,
  DISABLE_AFTER_FAILING_MS,
  enqueueEvent,
  MAX_ATTEMPTS,
  MAX_SENDS_PER_ENDPOINT,
  recordAttempt,
  redeliver,
  releaseDeliveries,
  retryDelayMs,
  RETRY_DELAYS_MS,
  deliveryLog,
} from "@/lib/webhooks/deliveries";
import { createEndpoint, getEndpoint } from "@/lib/webhooks/endpoints";

import { useStore, type Backend } from "@/tests/support/store-backends";

const settings = { allowPrivate: true, sealKey: "a root key of at least thirty-two characters" };
const timings = { speedup: 1 };
const failed = { ok: false, status: 500, durationMs: 12, error: null, excerpt: "down" };
const delivered = { ok: true, status: 204, durationMs: 8, error: null, excerpt: null };

export function deliveriesSuite(backend: Backend): void {
  describe(`webhook deliveries (${backend.name})`, () => {
    const store = useStore(backend);
    const endpointFor = async (db: Db, events: string[]) =>
      (await createEndpoint(db, { url: "http://127.0.0.1:9/hook", events: events as never }, settings, null)).endpoint;

    it("queues one delivery per enabled endpoint that wants the event, with one body for all its attempts", async () => {
      const { db } = store();
      const a = await endpointFor(db, ["purchase.checked"]);
      await endpointFor(db, ["report.deleted"]);
      expect(await enqueueEvent(db, "purchase.checked", { outcome: "valid" })).toBe(1);
      const claimed = await claimDueDeliveries(db, "one", 30_000, 10);
      expect(claimed).toHaveLength(1);
      expect(claimed[0]).toMatchObject({ endpointId: a.id, attempts: 0 });
      expect(JSON.parse(claimed[0]!.payload)).toMatchObject({ type: "purchase.checked", data: { outcome: "valid" } });
      // Held by its lease: another process does not take it.
      expect(await claimDueDeliveries(db, "two", 30_000, 10)).toEqual([]);
      await releaseDeliveries(db, "one");
      expect(await claimDueDeliveries(db, "two", 30_000, 10)).toHaveLength(1);
    });

    it("takes over a delivery whose holder died once its lease has run out", async () => {
      const { db } = store();
      await endpointFor(db, ["report.deleted"]);
      const start = new Date("2026-11-24T10:00:00Z");
      await enqueueEvent(db, "report.deleted", {}, start);
      expect(await claimDueDeliveries(db, "dead", 30_000, 10, start)).toHaveLength(1);
      expect(await claimDueDeliveries(db, "alive", 30_000, 10, new Date(start.getTime() + 29_000))).toEqual([]);
      expect(await claimDueDeliveries(db, "alive", 30_000, 10, new Date(start.getTime() + 31_000))).toHaveLength(1);
    });

    it("claims fairly: each endpoint's oldest before any endpoint's second, none past an endpoint's cap", async () => {
      const { db } = store();
      const stuck = await endpointFor(db, ["report.deleted"]);
      const healthy = await endpointFor(db, ["purchase.checked"]);
      const start = new Date("2026-11-24T10:00:00Z");
      // Ten older deliveries to an endpoint that cannot be reached, then one to a healthy endpoint.
      for (let i = 0; i < 10; i++) await enqueueEvent(db, "report.deleted", { i }, new Date(start.getTime() + i));
      await enqueueEvent(db, "purchase.checked", {}, new Date(start.getTime() + 1_000));
      const now = new Date(start.getTime() + 2_000);
      const batch = await claimDueDeliveries(db, "me", 30_000, 8, now);
      expect(batch.map((d) => d.endpointId).sort()).toEqual(
        [healthy.id, ...Array<string>(MAX_SENDS_PER_ENDPOINT).fill(stuck.id)].sort(),
      );
      // The stuck endpoint's oldest, in order.
      expect(
        batch
          .filter((d) => d.endpointId === stuck.id)
          .map((d) => (JSON.parse(d.payload) as { data: { i: number } }).data.i),
      ).toEqual([0, 1]);
      // While this process sends to it at its cap, no more of the stuck endpoint's are taken.
      await enqueueEvent(db, "purchase.checked", {}, now);
      const sending = new Map([[stuck.id, MAX_SENDS_PER_ENDPOINT]]);
      expect((await claimDueDeliveries(db, "me", 30_000, 8, now, sending)).map((d) => d.endpointId)).toEqual([
        healthy.id,
      ]);
    });

    it("retries on the schedule, the first within a minute, and fails after the last", async () => {
      expect(retryDelayMs(1, timings, () => 0)).toBe(4_000);
      expect(retryDelayMs(1, timings, () => 1)).toBe(6_000);
      expect(RETRY_DELAYS_MS.reduce((a, b) => a + b, 0)).toBeGreaterThan(24 * 3_600_000);
      expect(retryDelayMs(MAX_ATTEMPTS, timings)).toBeNull();

      const { db } = store();
      const endpoint = await endpointFor(db, ["report.deleted"]);
      let now = new Date("2026-11-24T10:00:00Z");
      await enqueueEvent(db, "report.deleted", {}, now);
      for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
        const [delivery] = await claimDueDeliveries(db, "me", 30_000, 10, now);
        expect(delivery, `attempt ${attempt}`).toBeDefined();
        await recordAttempt(db, delivery!, "me", failed, timings, now);
        if (attempt === MAX_ATTEMPTS) break;
        const { next_attempt_at } = await db
          .selectFrom("webhook_deliveries")
          .select("next_attempt_at")
          .executeTakeFirstOrThrow();
        const wait = Date.parse(next_attempt_at!) - now.getTime();
        expect(wait, `wait after attempt ${attempt}`).toBeGreaterThanOrEqual(RETRY_DELAYS_MS[attempt - 1]! * 0.8 - 1);
        expect(wait, `wait after attempt ${attempt}`).toBeLessThanOrEqual(RETRY_DELAYS_MS[attempt - 1]! * 1.2 + 1);
        // Not due before its wait.
        expect(await claimDueDeliveries(db, "me", 30_000, 10, new Date(now.getTime() + 1_000))).toEqual([]);
        now = new Date(next_attempt_at!);
      }
      const [log] = await deliveryLog(db, endpoint.id);
      expect(log).toMatchObject({ status: "failed", attempts: MAX_ATTEMPTS, next_attempt_at: null });
      expect(log!.log).toHaveLength(MAX_ATTEMPTS);
    });

    it("disables an endpoint failing for three days, once, and a success before that clears the failing", async () => {
      const { db } = store();
      const endpoint = await endpointFor(db, ["report.deleted"]);
      const start = new Date("2026-11-24T10:00:00Z");
      const attemptAt = async (at: Date) => {
        await enqueueEvent(db, "report.deleted", {}, at);
        const [delivery] = await claimDueDeliveries(db, "me", 30_000, 1, at);
        return delivery!;
      };
      expect(
        (await recordAttempt(db, await attemptAt(start), "me", failed, timings, start)).disabledEndpoint,
      ).toBeNull();
      expect((await getEndpoint(db, endpoint.id)).failingSince).toBe(start.toISOString());
      const later = new Date(start.getTime() + 3_600_000);
      await recordAttempt(db, await attemptAt(later), "me", delivered, timings, later);
      expect((await getEndpoint(db, endpoint.id)).failingSince).toBeNull();

      const again = new Date(start.getTime() + 2 * 3_600_000);
      await recordAttempt(db, await attemptAt(again), "me", failed, timings, again);
      const almost = new Date(again.getTime() + DISABLE_AFTER_FAILING_MS - 1_000);
      expect(
        (await recordAttempt(db, await attemptAt(almost), "me", failed, timings, almost)).disabledEndpoint,
      ).toBeNull();
      const over = new Date(again.getTime() + DISABLE_AFTER_FAILING_MS);
      const outcome = await recordAttempt(db, await attemptAt(over), "me", failed, timings, over);
      expect(outcome.disabledEndpoint).toMatchObject({ id: endpoint.id, failingSince: again.toISOString() });
      const disabled = await getEndpoint(db, endpoint.id);
      expect(disabled.enabled).toBe(false);
      expect(disabled.disabledReason).toContain("three days");
      // A disabled endpoint gets no new deliveries, and its pending ones wait.
      expect(await enqueueEvent(db, "report.deleted", {}, over)).toBe(0);
      expect(await claimDueDeliveries(db, "me", 30_000, 10, new Date(over.getTime() + 86_400_000))).toEqual([]);
    });

    it("sends a delivery again with the same id, keeping its attempts", async () => {
      const { db } = store();
      const endpoint = await endpointFor(db, ["report.deleted"]);
      await enqueueEvent(db, "report.deleted", {});
      const [delivery] = await claimDueDeliveries(db, "me", 30_000, 1);
      await recordAttempt(db, delivery!, "me", delivered, timings);
      await redeliver(db, endpoint.id, delivery!.id);
      const [again] = await claimDueDeliveries(db, "me", 30_000, 1);
      expect(again).toMatchObject({ id: delivery!.id, attempts: 1 });
      await expect(redeliver(db, endpoint.id, "msg_nope")).rejects.toMatchObject({ code: "not_found" });
    });
  });
}
