// What follows a right password: the second step (by what he has enrolled), enrolment first (the policy), and the
// session once he enrolled.
import { generate } from "otplib";
import { describe, expect, it } from "vitest";

import { writeSecondFactorPolicy } from "@/lib/auth/factors/policy";
import { generateRecoveryCodes } from "@/lib/auth/factors/recovery";
import { mustEnrolFirst, secondStepMethods, sessionAfterEnrolment } from "@/lib/auth/factors/steps";
import { confirmTotpEnrolment, startTotpEnrolment } from "@/lib/auth/factors/totp";
import type { SessionData } from "@/lib/auth/session";

import { sqliteBackend, useStore } from "@/tests/support/store-backends";

const KEY = "a data key for the steps tests";

describe("what follows a right password", () => {
  const store = useStore(sqliteBackend);

  it("asks the second step by what he has; recovery codes alone are no second factor", async () => {
    const { db } = store();
    expect(await secondStepMethods(db, { id: "u1" })).toEqual([]);
    await generateRecoveryCodes(db, "u1", { sealKey: KEY });
    expect(await secondStepMethods(db, { id: "u1" })).toEqual([]);
    await db
      .insertInto("passkeys")
      .values({
        id: "pk",
        user_id: "u1",
        credential_id: "cred",
        public_key: "cHVi",
        name: "Key",
        created_at: "2026-03-01",
      })
      .execute();
    expect(await secondStepMethods(db, { id: "u1" })).toEqual(["passkey", "recovery"]);
    const enrolment = await startTotpEnrolment(db, { id: "u1", email: "u1@example.com" }, { sealKey: KEY });
    await confirmTotpEnrolment(db, "u1", await generate({ secret: enrolment!.secret }), { sealKey: KEY });
    expect(await secondStepMethods(db, { id: "u1" })).toEqual(["passkey", "totp", "recovery"]);
  });

  it("holds to enrolment the roles the policy covers", async () => {
    const { db } = store();
    expect(await mustEnrolFirst(db, { role: "admin" })).toBe(false);
    await writeSecondFactorPolicy(db, "admins", null);
    expect(await mustEnrolFirst(db, { role: "admin" })).toBe(true);
    expect(await mustEnrolFirst(db, { role: "viewer" })).toBe(false);
  });

  it("frees the session once enrolled, as just proven", () => {
    const session: SessionData = {
      userId: "u1",
      sessionVersion: 2,
      issuedAt: 1_000,
      lastSeenAt: 2_000,
      mustEnrol: true,
    };
    const after = sessionAfterEnrolment(session, 5_000);
    expect(after).not.toHaveProperty("mustEnrol");
    expect(after).toMatchObject({ userId: "u1", sessionVersion: 2, verifiedAt: 5_000 });
  });
});
