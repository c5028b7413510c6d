// One check for every proof, through the sign-in throttle: a right authenticator or recovery code is accepted and
// forgives its attempt, a wrong one counts as a failed sign-in of the account from that address (429's reason after
// five), the password is a proof only for a step-up. The data key the factors are sealed under comes from the
// configuration (getConfig), read here from this process's environment.
import { generate } from "otplib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { verifyProof, type ProofContext } from "@/lib/auth/factors/proof";
import { generateRecoveryCodes } from "@/lib/auth/factors/recovery";
import { confirmTotpEnrolment, startTotpEnrolment } from "@/lib/auth/factors/totp";
import { createUser, type User } from "@/lib/auth/users";
import { getConfig } from "@/lib/config";
import type { Db } from "@/lib/db";

import { fast, sqliteBackend, useStore } from "@/tests/support/store-backends";

const DATA_KEY = "a data key for the proof tests, read through getConfig";
const PASSWORD = "a sound passphrase for proofs";
const context = (ip: string, purpose: ProofContext["purpose"] = "second_factor"): ProofContext => ({
  purpose,
  ip,
  origin: "http://127.0.0.1",
});

const VARIABLES = ["PURCHASE_CODE_HASH_KEY", "SESSION_SECRET", "REPORTS_API_BASE_URL", "REPORTS_API_KEY"] as const;
const saved = Object.fromEntries(VARIABLES.map((name) => [name, process.env[name]]));

afterAll(() => {
  for (const name of VARIABLES) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
});

beforeAll(() => {
  process.env.PURCHASE_CODE_HASH_KEY = DATA_KEY;
  process.env.SESSION_SECRET ??= "a session secret for the proof tests and long enough";
  process.env.REPORTS_API_BASE_URL ??= "http://127.0.0.1:9/seo";
  process.env.REPORTS_API_KEY ??= "proof-tests-reports-key";
});

async function person(db: Db): Promise<{ user: User; secret: string; codes: string[] }> {
  // The key the process's configuration holds (another file of this worker may have read it first).
  const sealKey = (await getConfig()).dataKey;
  const user = await createUser(
    db,
    { email: "pat@example.com", name: "Pat", role: "viewer", password: PASSWORD },
    fast,
  );
  const enrolment = await startTotpEnrolment(db, user, { sealKey });
  await confirmTotpEnrolment(
    db,
    user.id,
    await generate({ secret: enrolment!.secret, epoch: Date.now() / 1000 - 30 }),
    {
      sealKey,
      now: new Date(Date.now() - 30_000),
    },
  );
  return { user, secret: enrolment!.secret, codes: await generateRecoveryCodes(db, user.id, { sealKey }) };
}

describe("verifyProof", () => {
  const store = useStore(sqliteBackend);

  it("accepts the current authenticator code once, and a recovery code once", async () => {
    const { db } = store();
    const { user, secret, codes } = await person(db);
    const code = await generate({ secret });
    expect(await verifyProof(db, user, { method: "totp", code }, context("192.0.2.1"))).toEqual({
      ok: true,
      method: "totp",
    });
    expect(await verifyProof(db, user, { method: "totp", code }, context("192.0.2.1"))).toEqual({
      ok: false,
      reason: "wrong",
      method: "totp",
    });
    const recovery = codes[0]!.replace("-", "");
    expect(await verifyProof(db, user, { method: "recovery", code: recovery }, context("192.0.2.1"))).toEqual({
      ok: true,
      method: "recovery",
    });
    expect((await verifyProof(db, user, { method: "recovery", code: recovery }, context("192.0.2.1"))).ok).toBe(false);
  });

  it("counts wrong codes toward the throttle: after five from one address, that address is refused", async () => {
    const { db } = store();
    const { user, secret } = await person(db);
    for (let i = 0; i < 5; i++)
      expect(await verifyProof(db, user, { method: "totp", code: "000000" }, context("192.0.2.9"))).toMatchObject({
        ok: false,
        reason: "wrong",
      });
    const right = await generate({ secret });
    expect(await verifyProof(db, user, { method: "totp", code: right }, context("192.0.2.9"))).toMatchObject({
      ok: false,
      reason: "throttled",
    });
    // Another address is not refused.
    expect(await verifyProof(db, user, { method: "totp", code: right }, context("198.51.100.1"))).toEqual({
      ok: true,
      method: "totp",
    });
  });

  it("takes the password for a step-up only", async () => {
    const { db } = store();
    const { user } = await person(db);
    const password = { method: "password", password: PASSWORD } as const;
    expect(await verifyProof(db, user, password, context("192.0.2.3"))).toMatchObject({ ok: false, reason: "wrong" });
    expect(await verifyProof(db, user, password, context("192.0.2.3", "step_up"))).toEqual({
      ok: true,
      method: "password",
    });
    expect(
      await verifyProof(
        db,
        user,
        { method: "password", password: "not the password" },
        context("192.0.2.3", "step_up"),
      ),
    ).toMatchObject({ ok: false, reason: "wrong" });
  });
});
