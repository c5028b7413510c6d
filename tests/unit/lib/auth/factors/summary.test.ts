// What a person has enrolled, as the security page and the second step read it.
import { generate } from "otplib";
import { describe, expect, it } from "vitest";

import { generateRecoveryCodes, redeemRecoveryCode } from "@/lib/auth/factors/recovery";
import { factorSummary } from "@/lib/auth/factors/summary";
import { confirmTotpEnrolment, startTotpEnrolment } from "@/lib/auth/factors/totp";
import type { Db } from "@/lib/db";

import { sqliteBackend, useStore } from "@/tests/support/store-backends";

const KEY = "a data key for the summary tests";

async function addPasskey(db: Db, userId: string, n: number) {
  await db
    .insertInto("passkeys")
    .values({
      id: `pk-${userId}-${n}`,
      user_id: userId,
      credential_id: `cred-${userId}-${n}`,
      public_key: "cHVibGlj",
      name: `Key ${n}`,
      created_at: "2026-03-01T12:00:00.000Z",
    })
    .execute();
}

describe("factorSummary", () => {
  const store = useStore(sqliteBackend);

  it("counts passkeys, an app only once confirmed, and unused recovery codes: each person his own", async () => {
    const { db } = store();
    expect(await factorSummary(db, "u1")).toEqual({ passkeys: 0, totp: false, recovery_codes_left: 0 });
    await addPasskey(db, "u1", 1);
    await addPasskey(db, "u1", 2);
    await addPasskey(db, "u2", 1);
    const enrolment = await startTotpEnrolment(db, { id: "u1", email: "u1@example.com" }, { sealKey: KEY });
    expect((await factorSummary(db, "u1")).totp).toBe(false);
    await confirmTotpEnrolment(db, "u1", await generate({ secret: enrolment!.secret }), { sealKey: KEY });
    const [code] = await generateRecoveryCodes(db, "u1", { sealKey: KEY });
    await redeemRecoveryCode(db, "u1", code!.replace("-", ""), new Date(), KEY);
    expect(await factorSummary(db, "u1")).toEqual({ passkeys: 2, totp: true, recovery_codes_left: 9 });
    expect(await factorSummary(db, "u2")).toEqual({ passkeys: 1, totp: false, recovery_codes_left: 0 });
  });
});
