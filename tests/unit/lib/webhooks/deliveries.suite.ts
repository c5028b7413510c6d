// The deliveries queue, run on every backend (tests/unit/lib/webhooks/deliveries.test.ts: SQLite;
// tests/unit/lib/db/postgres.test.ts): one delivery per subscribed endpoint, due deliveries fair per endpoint, the
// retry schedule, an attempt recorded once, giving up, three days of failures disabling the endpoint, and "Send
// again", and "Send test event". (A killed process's attempt running again is the job system's: tests/unit/lib/jobs/index.test.ts; the
// cap on sends to one endpoint, tests/unit/lib/webhooks/delivery-job.test.ts.)
import { describe, expect, it } from "vitest";

import type { Db } from "@/lib/db";
import {
  DISABLE_AFTER_FAILING_MS,
  dueDeliveries,
  enqueueEvent,
  enqueueTestEvent,
  MAX_ATTEMPTS,
  recordAttempt,
  redeliver,
  retryDelayMs,
  RETRY_DELAYS_MS,
  deliveryLog,
} from "@/lib/webhooks/deliveries";
import { createEndpoint, getEndpoint, updateEndpoint } from "@/lib/webhooks/endpoints";

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
      expect(await enqueueEvent(db, "purchase.checked", { outcome: "valid" })).toHaveLength(1);
      const due = await dueDeliveries(db, new Date());
      expect(due).toHaveLength(1);
      expect(due[0]).toMatchObject({ endpointId: a.id, attempts: 0 });
      expect(JSON.parse(due[0]!.payload)).toMatchObject({ type: "purchase.checked", data: { outcome: "valid" } });
    });

    it("queues a test event to one endpoint, whatever it subscribes to, and never to a paused one", async () => {
      const { db } = store();
      const endpoint = await endpointFor(db, ["report.deleted"]);
      await endpointFor(db, ["report.deleted"]);
      const test = await enqueueTestEvent(db, endpoint.id);
      expect(await dueDeliveries(db, new Date())).toEqual([test]);
      expect(JSON.parse(test.payload)).toMatchObject({ type: "webhook.test", data: { endpoint_id: endpoint.id } });
      expect((await deliveryLog(db, endpoint.id))[0]).toMatchObject({ id: test.id, event: "webhook.test" });
      await updateEndpoint(db, endpoint.id, { enabled: false }, settings);
      await expect(enqueueTestEvent(db, endpoint.id)).rejects.toThrow(/paused or disabled/);
    });

    it("lists due deliveries fairly: each endpoint's oldest before any endpoint's second", async () => {
      const { db } = store();
      const stuck = await endpointFor(db, ["report.deleted"]);
      const healthy = await endpointFor(db, ["purchase.checked"]);
      const start = new Date("2026-11-24T10:00:00Z");
      // Ten older deliveries to an endpoint that cannot be reached, then one to a healthy endpoint.
      for (let i = 0; i < 10; i++) await enqueueEvent(db, "report.deleted", { i }, new Date(start.getTime() + i));
      await enqueueEvent(db, "purchase.checked", {}, new Date(start.getTime() + 1_000));
      const due = await dueDeliveries(db, new Date(start.getTime() + 2_000));
      expect(due.slice(0, 2).map((d) => d.endpointId)).toEqual([stuck.id, healthy.id]);
      // The stuck endpoint's, oldest first.
      expect(
        due
          .filter((d) => d.endpointId === stuck.id)
          .map((d) => (JSON.parse(d.payload) as { data: { i: number } }).data.i),
      ).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    });

    it("records an attempt once: a second run of the same attempt writes nothing", async () => {
      const { db } = store();
      const endpoint = await endpointFor(db, ["report.deleted"]);
      await enqueueEvent(db, "report.deleted", {});
      const [delivery] = await dueDeliveries(db, new Date());
      expect((await recordAttempt(db, delivery!, failed, timings)).recorded).toBe(true);
      expect(await recordAttempt(db, delivery!, failed, timings)).toMatchObject({ recorded: false, next: null });
      const [log] = await deliveryLog(db, endpoint.id);
      expect(log).toMatchObject({ attempts: 1, status: "pending" });
      expect(log!.log).toHaveLength(1);
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
        const [delivery] = await dueDeliveries(db, now);
        expect(delivery, `attempt ${attempt}`).toBeDefined();
        await recordAttempt(db, delivery!, failed, timings, now);
        if (attempt === MAX_ATTEMPTS) break;
        const { next_attempt_at } = await db
          .selectFrom("webhook_deliveries")
          .select("next_attempt_at")
          .executeTakeFirstOrThrow();
        const wait = Date.parse(next_attempt_at!) - now.getTime();
        expect(wait, `wait after attempt ${attempt}`).toBeGreaterThanOrEqual(RETRY_DELAYS_MS[attempt - 1]! * 0.8 - 1);
        expect(wait, `wait after attempt ${attempt}`).toBeLessThanOrEqual(RETRY_DELAYS_MS[attempt - 1]! * 1.2 + 1);
        // Not due before its wait.
        expect(await dueDeliveries(db, new Date(now.getTime() + 1_000))).toEqual([]);
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
        const [delivery] = await dueDeliveries(db, at);
        return delivery!;
      };
      expect((await recordAttempt(db, await attemptAt(start), failed, timings, start)).disabledEndpoint).toBeNull();
      expect((await getEndpoint(db, endpoint.id)).failingSince).toBe(start.toISOString());
      const later = new Date(start.getTime() + 3_600_000);
      await recordAttempt(db, await attemptAt(later), delivered, timings, later);
      expect((await getEndpoint(db, endpoint.id)).failingSince).toBeNull();

      const again = new Date(start.getTime() + 2 * 3_600_000);
      await recordAttempt(db, await attemptAt(again), failed, timings, again);
      const almost = new Date(again.getTime() + DISABLE_AFTER_FAILING_MS - 1_000);
      expect((await recordAttempt(db, await attemptAt(almost), failed, timings, almost)).disabledEndpoint).toBeNull();
      const over = new Date(again.getTime() + DISABLE_AFTER_FAILING_MS);
      const outcome = await recordAttempt(db, await attemptAt(over), failed, timings, over);
      expect(outcome.disabledEndpoint).toMatchObject({ id: endpoint.id, failingSince: again.toISOString() });
      const disabled = await getEndpoint(db, endpoint.id);
      expect(disabled.enabled).toBe(false);
      expect(disabled.disabledReason).toContain("three days");
      // A disabled endpoint gets no new deliveries, and its pending ones wait.
      expect(await enqueueEvent(db, "report.deleted", {}, over)).toEqual([]);
      expect(await dueDeliveries(db, new Date(over.getTime() + 86_400_000))).toEqual([]);
    });

    it("sends a delivery again with the same id, keeping its attempts", async () => {
      const { db } = store();
      const endpoint = await endpointFor(db, ["report.deleted"]);
      await enqueueEvent(db, "report.deleted", {});
      const [delivery] = await dueDeliveries(db, new Date());
      await recordAttempt(db, delivery!, delivered, timings);
      await redeliver(db, endpoint.id, delivery!.id);
      const [again] = await dueDeliveries(db, new Date());
      expect(again).toMatchObject({ id: delivery!.id, attempts: 1 });
      await expect(redeliver(db, endpoint.id, "msg_nope")).rejects.toMatchObject({ code: "not_found" });
    });
  });
}
