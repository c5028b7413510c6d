// The purchase lifecycle's sweep tick (lib/purchases/sweep.ts) against the sandbox over HTTP through the real item
// client, on SQLite and PostgreSQL: the codes waiting since an outage re-checked (a failure leaves them and stops the tick,
// an unreadable seal is dropped); the enrolled codes due re-verified oldest first, a reversed sale revoked and out of
// the sweep, the uncovered and the recent left alone; the tick's working time and the budget's waits; support notices
// once per support date, once across two instances; the kind's chain of ticks. And what selecting the due codes
// among 1,000 enrolled costs.
import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { hashPurchaseCode } from "@/lib/auth/audit";
import { localCluster } from "@/lib/cluster";
import { purchaseCodeLast4 } from "@/lib/contract/purchase-code";
import type { Db } from "@/lib/db";
import { setEventSink, type PortalEvent } from "@/lib/events";
import { newAreaBudget, type AreaBudget } from "@/lib/jobs/budget";
import { awaitRecheck, lifecycleCodeSealer, lifecycleSettings } from "@/lib/purchases/lifecycle";
import { saveLifecycleSettings } from "@/lib/purchases/lifecycle-admin";
import {
  dueCount,
  dueForSweep,
  purchaseSweepJob,
  rowsPerTick,
  sendSupportNotices,
  SWEEP_TICK_MS,
  sweepTick,
  sweepTickJob,
  type SweepDeps,
} from "@/lib/purchases/sweep";
import { FIXED_PURCHASE_CODES as CODES } from "@/lib/sandbox";
import { createItemsClient } from "@/lib/upstream/items";
import { DEFAULT_LIFECYCLE_SETTINGS, type PurchaseLifecycleSettings } from "@/lib/contract/purchase-lifecycle";

import { CANARY } from "@/tests/support/canary";
import { setUpCanarySandbox } from "@/tests/support/set-up-sandbox";
import { bothBackends, useStore, type Backend } from "@/tests/support/store-backends";

const KEY = "sweep-test-key-0123456789abcdef0123";
const VALIDATION_PATH = "/market/api/purchases/validation";
const DAY_MS = 86_400_000;
const NOW = new Date();
const ago = (days: number) => new Date(NOW.getTime() - days * DAY_MS).toISOString();
const ENABLED: PurchaseLifecycleSettings = {
  ...DEFAULT_LIFECYCLE_SETTINGS,
  sweep: { enabled: true, items: "all", every_days: 7 },
};

const sandbox = setUpCanarySandbox();
describe.each<Backend>(bothBackends())("on $name", (backend) => {
  const store = useStore(backend);
  let sent: PortalEvent[] = [];
  beforeEach(() => {
    sent = [];
    setEventSink("test", async (event) => void sent.push(event));
  });
  afterEach(() => setEventSink("test", null));

  const items = () =>
    createItemsClient(
      { baseUrl: sandbox.itemsBaseUrl, apiKey: CANARY.items, keyLocation: { kind: "query-and-form" } },
      { timeoutMs: 5000 },
    );

  function deps(overrides: Partial<SweepDeps> = {}): SweepDeps {
    return {
      db: store().db,
      hashKey: KEY,
      items: items(),
      format: "auto",
      budget: newAreaBudget("items", 60_000, localCluster("sweep-test")),
      callsPerMinute: 60_000,
      ...overrides,
    };
  }

  /** A known purchase, enrolled (sealed) unless said, last verified `verifiedAt`. */
  async function known(
    db: Db,
    code: string,
    fields: { verifiedAt?: string; itemId?: number; sealed?: boolean; supportedUntil?: string | null } = {},
  ) {
    const at = fields.verifiedAt ?? ago(30);
    await db
      .insertInto("known_purchases")
      .values({
        code_hash: hashPurchaseCode(code, KEY),
        code_last4: purchaseCodeLast4(code),
        item_id: fields.itemId ?? 100001,
        item_name: "Aurora",
        license_type: "Regular License",
        supported_until: fields.supportedUntil ?? null,
        sold_at: null,
        first_valid_at: at,
        last_valid_at: at,
        status: "valid",
        verified_at: at,
        revoked_at: null,
        code_sealed: fields.sealed === false ? null : lifecycleCodeSealer.seal(code, KEY),
        support_notice_for: null,
        shared_flagged_at: null,
      })
      .execute();
  }

  const row = (db: Db, code: string) =>
    db
      .selectFrom("known_purchases")
      .selectAll()
      .where("code_hash", "=", hashPurchaseCode(code, KEY))
      .executeTakeFirstOrThrow();
  const askedCodes = async () =>
    (await sandbox.requests())
      .filter((request) => request.path === VALIDATION_PATH)
      .map((request) => String(request.form?.purchase_code));

  /** A budget of one call per `everyMs` on a clock the tick's sleeps move: no real waiting. */
  function pacedBudget(everyMs: number): { budget: AreaBudget; now: () => Date; sleep: (ms: number) => Promise<void> } {
    let clock = NOW.getTime();
    let nextFree = clock;
    return {
      budget: {
        intervalMs: everyMs,
        async take() {
          if (clock < nextFree) return nextFree - clock;
          nextFree = clock + everyMs;
          return 0;
        },
      },
      now: () => new Date(clock),
      sleep: async (ms) => void (clock += ms),
    };
  }

  describe("a tick", () => {
    it("re-verifies the enrolled codes due, oldest first; a reversed sale is revoked and leaves the sweep", async () => {
      const db = store().db;
      // The sandbox sold the active code for item 100001, the one without support for 100003.
      await saveLifecycleSettings(db, { ...ENABLED, sweep: { ...ENABLED.sweep, items: [100001, 100003] } }, "a@x.test");
      await known(db, CODES.none, { verifiedAt: ago(20), itemId: 100003 });
      await known(db, CODES.active, { verifiedAt: ago(40) });
      await known(db, CODES.expired, { verifiedAt: ago(2) }); // recent: not due
      await known(db, CODES.letters, { verifiedAt: ago(50), itemId: 100009 }); // another item: not covered
      await known(db, "44444444-4444-4444-8444-44444444d004", { verifiedAt: ago(60), sealed: false }); // not enrolled
      await sandbox.setPurchase(CODES.active, { reversed: true });
      expect(await dueCount(db, await lifecycleSettings(db), NOW)).toBe(2);

      const summary = await sweepTick(deps());
      expect(summary).toEqual({ rechecked: 0, swept: 2, revoked: 1, notices: 0, ended: "done" });
      expect(await askedCodes()).toEqual([CODES.active, CODES.none]);
      expect(await row(db, CODES.active)).toMatchObject({ status: "revoked", code_sealed: null });
      const stillValid = await row(db, CODES.none);
      expect(stillValid.status).toBe("valid");
      expect(Date.parse(stillValid.verified_at)).toBeGreaterThan(Date.parse(ago(1)));
      expect(stillValid.code_sealed).not.toBeNull();
      expect(sent.map((event) => event.type)).toEqual(["purchase.revoked"]);
      const history = await db
        .selectFrom("purchase_checks")
        .select(["code_last4", "outcome", "source", "user_id", "user_email"])
        .orderBy("id")
        .execute();
      expect(history).toEqual([
        { code_last4: "1111", outcome: "revoked", source: "sweep", user_id: null, user_email: null },
        { code_last4: "3333", outcome: "valid", source: "sweep", user_id: null, user_email: null },
      ]);
      // Nothing due any more: the next tick asks nothing.
      await sandbox.clearRequests();
      expect((await sweepTick(deps())).swept).toBe(0);
      expect(await askedCodes()).toEqual([]);
    });

    it("asks nothing for enrolled codes while the sweep is off", async () => {
      const db = store().db;
      await known(db, CODES.none);
      expect(await sweepTick(deps())).toMatchObject({ swept: 0, ended: "done" });
      expect(await askedCodes()).toEqual([]);
    });

    it("takes every call's slot from the budget, and leaves what its working time cannot ask to the next tick", async () => {
      const db = store().db;
      await saveLifecycleSettings(db, ENABLED, null);
      const codes = [CODES.active, CODES.expired, CODES.none, CODES.letters];
      for (const [n, code] of codes.entries()) await known(db, code, { verifiedAt: ago(40 - n) });
      const paced = pacedBudget(1_000);
      const summary = await sweepTick(deps({ ...paced, workMs: 2_500 }));
      // Slots at 0, 1 s and 2 s; the fourth would come at 3 s, past the tick's 2.5 s.
      expect(summary).toMatchObject({ swept: 3, ended: "time" });
      expect(await askedCodes()).toEqual(codes.slice(0, 3));
      expect(await dueForSweep(db, ENABLED, NOW, 10)).toHaveLength(1);
    });

    it("re-checks the codes waiting since an outage; a failure leaves them and stops asking", async () => {
      const db = store().db;
      await awaitRecheck({ db, hashKey: KEY }, CODES.active, new Date(NOW.getTime() - 2000));
      await awaitRecheck({ db, hashKey: KEY }, CODES.none, new Date(NOW.getTime() - 1000));
      await sandbox.injectFault({ path: VALIDATION_PATH, kind: "status", status: 503 });
      expect(await sweepTick(deps())).toMatchObject({ rechecked: 0, ended: "failure" });
      expect(await askedCodes()).toEqual([CODES.active]); // stopped at the first failure
      expect(await db.selectFrom("purchase_rechecks").select("code_hash").execute()).toHaveLength(2);

      await sandbox.clearFaults();
      expect(await sweepTick(deps())).toMatchObject({ rechecked: 2, ended: "done" });
      expect(await db.selectFrom("purchase_rechecks").select("code_hash").execute()).toEqual([]);
      const rows = await db.selectFrom("purchase_checks").select(["outcome", "source"]).execute();
      expect(rows).toEqual([
        { outcome: "valid", source: "sweep" },
        { outcome: "valid", source: "sweep" },
      ]);
      // Remembered valid, but not enrolled: the sweep is off.
      expect((await row(db, CODES.active)).code_sealed).toBeNull();
    });

    it("drops a waiting code whose seal does not open, and forgets an enrolled one", async () => {
      const db = store().db;
      await saveLifecycleSettings(db, ENABLED, null);
      await db
        .insertInto("purchase_rechecks")
        .values({ code_hash: "h1", code_sealed: lifecycleCodeSealer.seal(CODES.none, "another key"), asked_at: ago(1) })
        .execute();
      await known(db, CODES.active);
      await db.updateTable("known_purchases").set({ code_sealed: "not.a.seal" }).execute();
      expect(await sweepTick(deps())).toMatchObject({ rechecked: 0, swept: 0, ended: "done" });
      expect(await askedCodes()).toEqual([]);
      expect(await db.selectFrom("purchase_rechecks").select("code_hash").execute()).toEqual([]);
      expect((await row(db, CODES.active)).code_sealed).toBeNull();
    });

    it("asks nothing without the item service, and still sends support notices", async () => {
      const db = store().db;
      await known(db, CODES.active, { supportedUntil: new Date(NOW.getTime() + 3 * DAY_MS).toISOString() });
      expect(await sweepTick(deps({ items: null }))).toMatchObject({ ended: "not_configured", notices: 1 });
    });
  });

  describe("support notices", () => {
    const inDays = (days: number) => new Date(NOW.getTime() + days * DAY_MS + 60_000).toISOString();

    it("sends one per support date within the notice period, again when the date moves", async () => {
      const db = store().db;
      await known(db, CODES.active, { supportedUntil: inDays(3) });
      await known(db, CODES.none, { supportedUntil: inDays(30) }); // beyond the 14 days
      await known(db, CODES.expired, { supportedUntil: ago(1) }); // ended
      expect(await sendSupportNotices(db, DEFAULT_LIFECYCLE_SETTINGS, NOW)).toBe(1);
      expect(sent).toMatchObject([
        {
          type: "purchase.support_expiring",
          data: { code_last4: "1111", item: { id: 100001, name: "Aurora" }, days_left: 3, supported_until: inDays(3) },
        },
      ]);
      expect(await sendSupportNotices(db, DEFAULT_LIFECYCLE_SETTINGS, NOW)).toBe(0);
      await db
        .updateTable("known_purchases")
        .set({ supported_until: inDays(5) })
        .where("code_last4", "=", "1111")
        .execute();
      expect(await sendSupportNotices(db, DEFAULT_LIFECYCLE_SETTINGS, NOW)).toBe(1);
      expect(sent.at(-1)!.data).toMatchObject({ days_left: 5 });
    });

    it("sends once when two instances look at the same time", async () => {
      const db = store().db;
      for (const code of [CODES.active, CODES.none, CODES.letters])
        await known(db, code, { supportedUntil: inDays(2) });
      const counts = await Promise.all([
        sendSupportNotices(db, DEFAULT_LIFECYCLE_SETTINGS, NOW),
        sendSupportNotices(db, DEFAULT_LIFECYCLE_SETTINGS, NOW),
      ]);
      expect(counts[0]! + counts[1]!).toBe(3);
      expect(sent).toHaveLength(3);
    });
  });

  describe("the kind", () => {
    it("queues the next minute's tick first; Sweep now queues none", async () => {
      const queued: string[] = [];
      const job = purchaseSweepJob({
        deps: async () => deps(),
        queueTick: async (_payload, { id }) => void queued.push(id),
        now: () => NOW,
      });
      const { payload } = sweepTickJob(NOW.getTime());
      expect(await job.handle(payload, { id: "t", retries: 0 })).toEqual({ kind: "done" });
      expect(queued).toEqual([sweepTickJob(payload.slot + SWEEP_TICK_MS).options.id]);
      await job.handle({ slot: NOW.getTime(), manual: true }, { id: "n", retries: 0 });
      expect(queued).toHaveLength(1);
    });

    it("reads no more rows a tick than its budget can ask", () => {
      expect(rowsPerTick(12)).toBe(11);
      expect(rowsPerTick(60_000)).toBe(500);
      expect(rowsPerTick(0.01)).toBe(2);
    });
  });

  describe("selecting the due codes", () => {
    it("among 1,000 enrolled codes takes well under a tick", async () => {
      const db = store().db;
      const at = (n: number) => new Date(NOW.getTime() - (10 + (n % 50)) * DAY_MS - n * 1000).toISOString();
      const rows = Array.from({ length: 1000 }, (_, n) => {
        const hash = `h${String(n).padStart(4, "0")}`;
        return {
          code_hash: hash,
          code_last4: hash.slice(-4),
          item_id: 100001 + (n % 7),
          item_name: "Aurora",
          license_type: "Regular License",
          supported_until: null,
          sold_at: null,
          first_valid_at: at(n),
          last_valid_at: at(n),
          status: "valid",
          verified_at: at(n),
          revoked_at: null,
          code_sealed: "sealed",
          support_notice_for: null,
          shared_flagged_at: null,
        };
      });
      for (let n = 0; n < rows.length; n += 100)
        await db
          .insertInto("known_purchases")
          .values(rows.slice(n, n + 100))
          .execute();
      const started = performance.now();
      const due = await dueForSweep(db, ENABLED, NOW, rowsPerTick(12));
      const count = await dueCount(db, ENABLED, NOW);
      const ms = performance.now() - started;
      expect(due).toHaveLength(11);
      expect(count).toBe(1000);
      const oldest = [...rows].sort((a, b) => a.verified_at.localeCompare(b.verified_at))[0]!;
      expect(due[0]!.code_hash).toBe(oldest.code_hash);
      expect(ms).toBeLessThan(1_000);
    });
  });
});
