// The lifecycle's rules on a SQLite store (the HTTP test, tests/http/api/purchases/lifecycle.test.ts, runs them on
// both stores through the production build): a known purchase revoked once even when two checks race, the sweep's
// seal only for covered items, the settings' defaults when the row cannot be read, which failures are answered from
// the last verdict, the days of support left, and the words.
import { afterEach, describe, expect, it } from "vitest";

import { hashPurchaseCode } from "@/lib/auth/audit";
import { DEFAULT_LIFECYCLE_SETTINGS, type PurchaseLifecycleSettings } from "@/lib/contract/purchase-lifecycle";
import type { Purchase } from "@/lib/contract/purchases";
import { setEventSink, type PortalEvent } from "@/lib/events";
import {
  ageInWords,
  answersFromLastVerdict,
  lastVerdict,
  lifecycleCodeSealer,
  lifecycleSettings,
  revokedSentence,
  settleAnswer,
  supportEndsInDays,
} from "@/lib/purchases/lifecycle";
import { recordPurchaseCheck } from "@/lib/purchases/history";
import { CircuitOpenError, UpstreamError } from "@/lib/upstream/errors";

import { sqliteBackend, useStore } from "@/tests/support/store-backends";

const KEY = "lifecycle-test-key-0123456789abcdef";
const CODE = "aaaaaaaa-1111-4111-8111-11111111a001";
const purchase: Purchase = {
  purchase_code: CODE,
  license_type: "Regular License",
  price: 59,
  currency: "USD",
  item: { id: 101, name: "Dashboard Kit", url: null, media: {} },
  supported_until: "2030-01-31T00:00:00.000Z",
  downloaded: true,
  date: "2024-01-31T00:00:00.000Z",
};
const sweepAll: PurchaseLifecycleSettings = {
  ...DEFAULT_LIFECYCLE_SETTINGS,
  sweep: { enabled: true, items: [101], every_days: 30 },
};

afterEach(() => setEventSink("test", null));

describe("the lifecycle on a store", () => {
  const store = useStore(sqliteBackend);
  const events: PortalEvent[] = [];
  const listen = () => {
    events.length = 0;
    setEventSink("test", async (event) => {
      events.push(event);
    });
  };

  it("revokes a known purchase once, even when two refusals settle at the same moment", async () => {
    listen();
    const deps = { db: store().db, hashKey: KEY, settings: DEFAULT_LIFECYCLE_SETTINGS };
    const at = new Date("2026-03-03T10:00:00Z");
    await settleAnswer(deps, { code: CODE, forms: [CODE], answer: { status: "valid", purchase }, at });
    const refusal = {
      code: CODE,
      forms: [CODE],
      answer: { status: "invalid", reason: "Invalid purchase code" },
    } as const;
    const later = new Date("2026-04-01T10:00:00Z");
    const [a, b] = await Promise.all([
      settleAnswer(deps, { ...refusal, at: later }),
      settleAnswer(deps, { ...refusal, at: later }),
    ]);
    expect([a.outcome, b.outcome]).toEqual(["revoked", "revoked"]);
    expect(a.reason).toBe(
      "Valid on 3 Mar 2026 (Regular License, item Dashboard Kit), not valid now: the sale was probably refunded or reversed.",
    );
    expect(events.map((event) => event.type)).toEqual(["purchase.revoked"]);
    expect(JSON.stringify(events)).not.toContain(CODE);
    // Valid again (a sale reinstated): known valid, and a later refusal is a new revocation.
    await settleAnswer(deps, { code: CODE, forms: [CODE], answer: { status: "valid", purchase }, at: later });
    await settleAnswer(deps, { ...refusal, at: new Date("2026-05-01T10:00:00Z") });
    expect(events.map((event) => event.type)).toEqual(["purchase.revoked", "purchase.revoked"]);
  });

  it("seals a valid code only when the sweep covers its item, and forgets it when revoked", async () => {
    const db = store().db;
    const sealed = async () =>
      (
        await db
          .selectFrom("known_purchases")
          .select("code_sealed")
          .where("code_hash", "=", hashPurchaseCode(CODE, KEY))
          .executeTakeFirstOrThrow()
      ).code_sealed;
    const at = new Date();
    const valid = { code: CODE, forms: [CODE], answer: { status: "valid", purchase }, at } as const;
    await settleAnswer({ db, hashKey: KEY, settings: DEFAULT_LIFECYCLE_SETTINGS }, valid);
    expect(await sealed()).toBeNull();
    await settleAnswer({ db, hashKey: KEY, settings: sweepAll }, valid);
    const seal = await sealed();
    expect(seal).not.toContain(CODE);
    expect(lifecycleCodeSealer.open(seal!, KEY)).toBe(CODE);
    await settleAnswer(
      { db, hashKey: KEY, settings: sweepAll },
      { ...valid, answer: { status: "invalid", reason: "Invalid purchase code" } },
    );
    expect(await sealed()).toBeNull();
  });

  it("reads the defaults until an admin saves settings, and when the saved row no longer parses", async () => {
    const db = store().db;
    expect(await lifecycleSettings(db)).toEqual(DEFAULT_LIFECYCLE_SETTINGS);
    const row = { name: "lifecycle", updated_at: new Date().toISOString(), updated_by: null };
    await db
      .insertInto("purchase_settings")
      .values({ ...row, value: JSON.stringify(sweepAll) })
      .execute();
    expect(await lifecycleSettings(db)).toEqual(sweepAll);
    await db.updateTable("purchase_settings").set({ value: "{not json" }).execute();
    expect(await lifecycleSettings(db)).toEqual(DEFAULT_LIFECYCLE_SETTINGS);
  });

  it("gives the last verdict of any form of the code, never a failed check's", async () => {
    const db = store().db;
    const deps = { db, hashKey: KEY };
    expect(await lastVerdict(deps, [CODE], new Date())).toBeNull();
    const who = { id: "u1", email: "vera@example.com" };
    await recordPurchaseCheck(db, KEY, {
      user: who,
      code: CODE,
      outcome: "valid",
      reason: null,
      purchase,
      source: "single",
      at: new Date("2026-11-01T00:00:00Z"),
    });
    await recordPurchaseCheck(db, KEY, {
      user: who,
      code: CODE,
      outcome: "failed",
      reason: "down",
      source: "single",
      at: new Date("2026-11-02T00:00:00Z"),
    });
    expect(await lastVerdict(deps, ["another-form", CODE], new Date("2026-11-04T00:00:00Z"))).toEqual({
      outcome: "valid",
      checked_at: "2026-11-01T00:00:00.000Z",
      checked_by: "vera@example.com",
      reason: null,
      item: { id: 101, name: "Dashboard Kit" },
      license_type: "Regular License",
      supported_until: "2030-01-31T00:00:00.000Z",
      support: "active",
    });
  });
});

describe("answersFromLastVerdict", () => {
  const failure = (kind: UpstreamError["kind"], status?: number) =>
    new UpstreamError({ kind, area: "items", operation: "items.validatePurchase", detail: "x", status });

  it("answers from the last verdict when the item service did not answer usably, never for a 429, a 4xx or a refused key", () => {
    for (const error of [
      failure("timeout"),
      failure("unreachable"),
      failure("bad_response"),
      failure("http_status", 503),
      new CircuitOpenError({ area: "items", operation: "items.validatePurchase", retryAfterSeconds: 30 }),
    ])
      expect(answersFromLastVerdict(error), error.message).toBe(true);
    for (const error of [failure("rate_limited", 429), failure("http_status", 400), failure("auth", 401)])
      expect(answersFromLastVerdict(error), error.message).toBe(false);
    expect(answersFromLastVerdict(new Error("a bug"))).toBe(false);
  });
});

describe("the words", () => {
  const now = new Date("2026-11-28T12:00:00Z");

  it("counts the whole days of support left within the notice, and nothing past it, ended or absent", () => {
    expect(supportEndsInDays("2026-12-07T13:00:00Z", 14, now)).toBe(9);
    expect(supportEndsInDays("2026-11-28T18:00:00Z", 14, now)).toBe(0);
    expect(supportEndsInDays("2026-12-31T00:00:00Z", 14, now)).toBeNull();
    expect(supportEndsInDays("2026-11-01T00:00:00Z", 14, now)).toBeNull();
    expect(supportEndsInDays(null, 14, now)).toBeNull();
  });

  it("says a verdict's age in its largest whole unit", () => {
    expect(ageInWords(3 * 86_400_000 + 5_000)).toBe("3 days ago");
    expect(ageInWords(3_600_000)).toBe("1 hour ago");
    expect(ageInWords(120_000)).toBe("2 minutes ago");
    expect(ageInWords(10_000)).toBe("moments ago");
  });

  it("names what was bought in a revocation's sentence", () => {
    expect(
      revokedSentence({
        first_valid_at: "2026-01-01T00:00:00.000Z",
        last_valid_at: "2026-03-03T23:59:00.000Z",
        item: { id: 1, name: "Aurora" },
        license_type: "Extended License",
        supported_until: null,
        sold_at: null,
      }),
    ).toBe(
      "Valid on 3 Mar 2026 (Extended License, item Aurora), not valid now: the sale was probably refunded or reversed.",
    );
  });
});
