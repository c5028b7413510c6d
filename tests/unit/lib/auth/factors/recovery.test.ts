// Recovery codes on both stores: ten shown once in the abcde-12345 form, kept hashed (never the code), each used
// once (also when two checks race), a new set replacing every old code.
import { describe, expect, it } from "vitest";

import { generateRecoveryCodes, redeemRecoveryCode } from "@/lib/auth/factors/recovery";
import { RECOVERY_CODE_COUNT } from "@/lib/contract/values";

import { bothBackends, useStore } from "@/tests/support/store-backends";

const KEY = "a data key for the recovery tests";
const NOW = new Date("2026-03-01T12:00:00.000Z");
const plain = (code: string) => code.replace("-", "");

describe.each(bothBackends())("recovery codes ($name)", (backend) => {
  const store = useStore(backend);

  it("makes RECOVERY_CODE_COUNT distinct codes like abcde-12345, stored as keyed hashes only", async () => {
    const { db } = store();
    const codes = await generateRecoveryCodes(db, "user-a", { sealKey: KEY, now: NOW });
    expect(codes).toHaveLength(RECOVERY_CODE_COUNT);
    expect(new Set(codes).size).toBe(RECOVERY_CODE_COUNT);
    for (const code of codes) expect(code).toMatch(/^[a-z0-9]{5}-[a-z0-9]{5}$/);
    const rows = await db.selectFrom("recovery_codes").selectAll().execute();
    expect(rows).toHaveLength(RECOVERY_CODE_COUNT);
    const stored = JSON.stringify(rows);
    for (const code of codes) {
      expect(stored).not.toContain(code);
      expect(stored).not.toContain(plain(code));
    }
  });

  it("takes each code once, for its own person and key only", async () => {
    const { db } = store();
    const [first, second] = await generateRecoveryCodes(db, "user-a", { sealKey: KEY });
    expect(await redeemRecoveryCode(db, "user-b", plain(first!), NOW, KEY)).toBe(false);
    expect(await redeemRecoveryCode(db, "user-a", plain(first!), NOW, "another key")).toBe(false);
    expect(await redeemRecoveryCode(db, "user-a", plain(first!), NOW, KEY)).toBe(true);
    expect(await redeemRecoveryCode(db, "user-a", plain(first!), NOW, KEY)).toBe(false);
    expect(await redeemRecoveryCode(db, "user-a", plain(second!), NOW, KEY)).toBe(true);
    expect(await redeemRecoveryCode(db, "user-a", "abcde12345", NOW, KEY)).toBe(false);
    expect(await redeemRecoveryCode(db, "user-a", "not a code", NOW, KEY)).toBe(false);
    const used = await db.selectFrom("recovery_codes").select("used_at").where("used_at", "is not", null).execute();
    expect(used).toEqual([{ used_at: NOW.toISOString() }, { used_at: NOW.toISOString() }]);
  });

  it("of one code redeemed at once (two instances), exactly one succeeds", async () => {
    const { db } = store();
    const [code] = await generateRecoveryCodes(db, "user-a", { sealKey: KEY });
    const results = await Promise.all(
      Array.from({ length: 6 }, () => redeemRecoveryCode(db, "user-a", plain(code!), NOW, KEY)),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it("a new set replaces every old code, used or not", async () => {
    const { db } = store();
    const old = await generateRecoveryCodes(db, "user-a", { sealKey: KEY });
    await redeemRecoveryCode(db, "user-a", plain(old[0]!), NOW, KEY);
    const fresh = await generateRecoveryCodes(db, "user-a", { sealKey: KEY });
    expect(await redeemRecoveryCode(db, "user-a", plain(old[1]!), NOW, KEY)).toBe(false);
    expect(await redeemRecoveryCode(db, "user-a", plain(fresh[0]!), NOW, KEY)).toBe(true);
    expect(await db.selectFrom("recovery_codes").selectAll().execute()).toHaveLength(RECOVERY_CODE_COUNT);
  });
});
