// The authenticator app on both stores: enrolment (the secret sealed), confirmation, the window of one step either
// side, each code once (also when two checks race), removal. Codes are computed here from the secret by otplib, the
// clock passed in: no test waits.
import { generate } from "otplib";
import { describe, expect, it } from "vitest";

import {
  checkTotpCode,
  confirmTotpEnrolment,
  removeTotp,
  startTotpEnrolment,
  totpStatus,
} from "@/lib/auth/factors/totp";

import { bothBackends, useStore } from "@/tests/support/store-backends";

const KEY = "a data key for the totp tests, 32 characters or so";
const T0 = Date.parse("2026-03-01T12:00:10.000Z");
const STEP = 30_000;
const at = (steps: number) => new Date(T0 + steps * STEP);
const codeAt = (secret: string, steps: number) => generate({ secret, epoch: Math.floor((T0 + steps * STEP) / 1000) });
const alice = { id: "user-alice", email: "alice@example.com" };

describe.each(bothBackends())("the authenticator app ($name)", (backend) => {
  const store = useStore(backend);

  async function enrolled(): Promise<string> {
    const { db } = store();
    const enrolment = await startTotpEnrolment(db, alice, { sealKey: KEY, now: at(0) });
    if (!enrolment) throw new Error("no enrolment");
    expect(
      await confirmTotpEnrolment(db, alice.id, await codeAt(enrolment.secret, 0), { sealKey: KEY, now: at(0) }),
    ).toBe(true);
    return enrolment.secret;
  }

  it("starts with a base32 secret, its otpauth URI and an SVG QR code; the store holds it sealed", async () => {
    const { db } = store();
    const enrolment = await startTotpEnrolment(db, alice, { sealKey: KEY });
    expect(enrolment?.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(enrolment?.uri).toBe(
      `otpauth://totp/Gatehouse:alice%40example.com?secret=${enrolment?.secret}&issuer=Gatehouse`,
    );
    expect(enrolment?.qrSvg).toMatch(/^<svg [^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    const row = await db.selectFrom("totp_factors").selectAll().executeTakeFirstOrThrow();
    expect(row.secret_sealed).not.toContain(enrolment?.secret);
    expect(row.confirmed_at).toBeNull();
    expect(await totpStatus(db, alice.id)).toBe("pending");
  });

  it("is no factor until confirmed: a right code is refused by the sign-in check before", async () => {
    const { db } = store();
    const enrolment = await startTotpEnrolment(db, alice, { sealKey: KEY });
    expect(await checkTotpCode(db, alice.id, await codeAt(enrolment!.secret, 0), at(0), KEY)).toBe(false);
  });

  it("confirms with the current code, not a wrong one; a confirmed app is not replaced by starting again", async () => {
    const { db } = store();
    const enrolment = await startTotpEnrolment(db, alice, { sealKey: KEY });
    const wrong = (Number(await codeAt(enrolment!.secret, 0)) + 1) % 1_000_000;
    expect(await confirmTotpEnrolment(db, alice.id, String(wrong).padStart(6, "0"), { sealKey: KEY, now: at(0) })).toBe(
      false,
    );
    expect(
      await confirmTotpEnrolment(db, alice.id, await codeAt(enrolment!.secret, 0), { sealKey: KEY, now: at(0) }),
    ).toBe(true);
    expect(await totpStatus(db, alice.id)).toBe("confirmed");
    expect(await startTotpEnrolment(db, alice, { sealKey: KEY })).toBeNull();
    expect(
      await confirmTotpEnrolment(db, alice.id, await codeAt(enrolment!.secret, 1), { sealKey: KEY, now: at(1) }),
    ).toBe(false);
  });

  it("starting again before confirming replaces the secret: the old one's codes no longer confirm", async () => {
    const { db } = store();
    const first = await startTotpEnrolment(db, alice, { sealKey: KEY });
    const second = await startTotpEnrolment(db, alice, { sealKey: KEY });
    expect(second!.secret).not.toBe(first!.secret);
    expect(await confirmTotpEnrolment(db, alice.id, await codeAt(first!.secret, 0), { sealKey: KEY, now: at(0) })).toBe(
      false,
    );
    expect(
      await confirmTotpEnrolment(db, alice.id, await codeAt(second!.secret, 0), { sealKey: KEY, now: at(0) }),
    ).toBe(true);
  });

  it("accepts one step either side of now, not two", async () => {
    const { db } = store();
    const secret = await enrolled();
    expect(await checkTotpCode(db, alice.id, await codeAt(secret, 3), at(5), KEY)).toBe(false);
    expect(await checkTotpCode(db, alice.id, await codeAt(secret, 7), at(5), KEY)).toBe(false);
    expect(await checkTotpCode(db, alice.id, await codeAt(secret, 4), at(5), KEY)).toBe(true);
    expect(await checkTotpCode(db, alice.id, await codeAt(secret, 11), at(10), KEY)).toBe(true);
  });

  it("takes each code once, and no older code after a newer one", async () => {
    const { db } = store();
    const secret = await enrolled();
    // The confirmation used step 0's code.
    expect(await checkTotpCode(db, alice.id, await codeAt(secret, 0), at(0), KEY)).toBe(false);
    expect(await checkTotpCode(db, alice.id, await codeAt(secret, 2), at(2), KEY)).toBe(true);
    expect(await checkTotpCode(db, alice.id, await codeAt(secret, 2), at(2), KEY)).toBe(false);
    // Step 1 is within the window at step 2, but older than the one used.
    expect(await checkTotpCode(db, alice.id, await codeAt(secret, 1), at(2), KEY)).toBe(false);
    const row = await db.selectFrom("totp_factors").select("last_used_step").executeTakeFirstOrThrow();
    expect(row.last_used_step).toBe(Math.floor((T0 + 2 * STEP) / STEP));
  });

  it("of the same code checked at once (two instances), exactly one accepts it", async () => {
    const { db } = store();
    const secret = await enrolled();
    const code = await codeAt(secret, 3);
    const results = await Promise.all(Array.from({ length: 6 }, () => checkTotpCode(db, alice.id, code, at(3), KEY)));
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it("opens only with its key and for its person", async () => {
    const { db } = store();
    const secret = await enrolled();
    expect(await checkTotpCode(db, alice.id, await codeAt(secret, 2), at(2), "another data key entirely")).toBe(false);
    // The sealed secret copied to Bob's row does not open for Bob.
    const row = await db.selectFrom("totp_factors").selectAll().executeTakeFirstOrThrow();
    await db
      .insertInto("totp_factors")
      .values({ ...row, user_id: "user-bob" })
      .execute();
    expect(await checkTotpCode(db, "user-bob", await codeAt(secret, 2), at(2), KEY)).toBe(false);
    expect(await checkTotpCode(db, alice.id, "12345", at(2), KEY)).toBe(false);
  });

  it("is removed", async () => {
    const { db } = store();
    const secret = await enrolled();
    expect(await removeTotp(db, alice.id)).toBe(true);
    expect(await removeTotp(db, alice.id)).toBe(false);
    expect(await totpStatus(db, alice.id)).toBe("none");
    expect(await checkTotpCode(db, alice.id, await codeAt(secret, 2), at(2), KEY)).toBe(false);
  });
});
