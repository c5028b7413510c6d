// One person's checks of one day in his time zone (UTC by default), on SQLite and PostgreSQL: counted by outcome
// (a valid code whose support had ended apart), the newest few, other people's checks and other days left out.
import { describe, expect, it } from "vitest";

import type { Purchase } from "@/lib/contract/purchases";
import { recordPurchaseCheck, type PurchaseCheckRecordInput } from "@/lib/purchases/history";
import { userChecksOfDay } from "@/lib/purchases/today";

import { bothBackends, useStore, type Backend } from "@/tests/support/store-backends";

const KEY = "today-test-key-0123456789abcdef";
const ALICE = { id: "u-alice", email: "alice@example.com" };
const BOB = { id: "u-bob", email: "bob@example.com" };
const NOW = new Date("2026-03-10T15:00:00.000Z");

const purchase = (supportedUntil?: string): Purchase => ({
  purchase_code: "x",
  license_type: "Regular License",
  price: 59,
  currency: "USD",
  item: { id: 101, name: "Dashboard Kit", url: null, media: {} },
  supported_until: supportedUntil,
  downloaded: true,
  date: "2024-01-31T00:00:00.000Z",
});

describe.each<Backend>(bothBackends())("userChecksOfDay on $name", (backend) => {
  const store = useStore(backend);
  const record = (at: string, code: string, overrides: Partial<PurchaseCheckRecordInput> = {}) =>
    recordPurchaseCheck(store().db, KEY, {
      at: new Date(at),
      user: ALICE,
      code,
      outcome: "invalid",
      reason: "Invalid purchase code",
      source: "single",
      ...overrides,
    });

  it("counts the day's checks by outcome and lists the newest first, masked", async () => {
    await record("2026-03-10T08:00:00.000Z", "aaaaaaaa-1111-4111-8111-11111111a001", {
      outcome: "valid",
      reason: null,
      purchase: purchase("2030-01-01T00:00:00.000Z"),
    });
    await record("2026-03-10T09:00:00.000Z", "aaaaaaaa-1111-4111-8111-11111111a002", {
      outcome: "valid",
      reason: null,
      purchase: purchase("2025-01-01T00:00:00.000Z"),
    });
    await record("2026-03-10T10:00:00.000Z", "aaaaaaaa-1111-4111-8111-11111111a003", {
      outcome: "valid",
      reason: null,
      purchase: purchase(),
    });
    await record("2026-03-10T11:00:00.000Z", "aaaaaaaa-1111-4111-8111-11111111a004");
    await record("2026-03-10T12:00:00.000Z", "aaaaaaaa-1111-4111-8111-11111111a005", {
      outcome: "failed",
      reason: "The item service did not answer in time.",
    });
    await record("2026-03-10T13:00:00.000Z", "aaaaaaaa-1111-4111-8111-11111111a006", { source: "bulk" });
    // Not counted: another person's check today, and Alice's of yesterday (UTC) and of tomorrow.
    await record("2026-03-10T14:00:00.000Z", "bbbbbbbb-1111-4111-8111-11111111b001", { user: BOB });
    await record("2026-03-09T23:59:59.999Z", "aaaaaaaa-1111-4111-8111-11111111a000");
    await record("2026-03-11T00:00:00.000Z", "aaaaaaaa-1111-4111-8111-11111111a009");

    const today = await userChecksOfDay(store().db, KEY, { userId: ALICE.id, now: NOW, latest: 3 });
    expect(today.day).toBe("2026-03-10");
    expect(today.counts).toEqual({ valid: 2, expired: 1, invalid: 2, failed: 1 });
    expect(today.total).toBe(6);
    expect(today.latest.map((entry) => [entry.code_last4, entry.outcome, entry.source])).toEqual([
      ["a006", "invalid", "bulk"],
      ["a005", "failed", "single"],
      ["a004", "invalid", "single"],
    ]);
    expect(JSON.stringify(today)).not.toContain("aaaaaaaa-1111");
  });

  it("answers zeros and no rows for a day without checks", async () => {
    await record("2026-03-09T12:00:00.000Z", "aaaaaaaa-1111-4111-8111-11111111a001");
    expect(await userChecksOfDay(store().db, KEY, { userId: ALICE.id, now: NOW })).toEqual({
      day: "2026-03-10",
      counts: { valid: 0, expired: 0, invalid: 0, failed: 0 },
      total: 0,
      latest: [],
    });
  });

  it("counts from midnight in the person's zone: in Los Angeles, 07:00 to 07:00 UTC in March", async () => {
    // 15:00 UTC on 10 March is 08:00 in Los Angeles (PDT, UTC-7, since 8 March): its day began at 07:00 UTC.
    await record("2026-03-10T06:59:59.999Z", "aaaaaaaa-1111-4111-8111-11111111a001");
    await record("2026-03-10T07:00:00.000Z", "aaaaaaaa-1111-4111-8111-11111111a002");
    await record("2026-03-11T06:59:59.999Z", "aaaaaaaa-1111-4111-8111-11111111a003");
    await record("2026-03-11T07:00:00.000Z", "aaaaaaaa-1111-4111-8111-11111111a004");
    const today = await userChecksOfDay(store().db, KEY, {
      userId: ALICE.id,
      timeZone: "America/Los_Angeles",
      now: NOW,
    });
    expect(today.day).toBe("2026-03-10");
    expect(today.total).toBe(2);
    expect(today.latest.map((entry) => entry.code_last4)).toEqual(["a003", "a002"]);
  });

  it("takes the day the person is in: 01:00 in Tokyo is the next day", async () => {
    const today = await userChecksOfDay(store().db, KEY, {
      userId: ALICE.id,
      timeZone: "Asia/Tokyo",
      now: new Date("2026-03-10T16:00:00.000Z"),
    });
    expect(today.day).toBe("2026-03-11");
  });
});
