// The step-up's rule (lib/auth/factors/step-up.ts): when a session's last proof is too old, the session once proven,
// the proofs a person can give (from what he enrolled, on a real SQLite store) and the sentence he is told. Over
// HTTP, on both stores: tests/http/api/auth/step-up.test.ts.
import { describe, expect, it } from "vitest";

import { lastProofAt, sessionAfterStepUp, stepUpDue, stepUpMethods, stepUpSentence } from "@/lib/auth/factors/step-up";
import { createUser } from "@/lib/auth/users";
import { STEP_UP_MINUTES } from "@/lib/contract/values";

import { fast, sqliteBackend, useStore } from "@/tests/support/store-backends";

const NOW = Date.parse("2027-01-05T12:00:00Z");
const MINUTE = 60_000;
const session = (issuedAgo: number, verifiedAgo?: number) => ({
  userId: "u",
  sessionVersion: 1,
  issuedAt: NOW - issuedAgo * MINUTE,
  lastSeenAt: NOW,
  ...(verifiedAgo === undefined ? {} : { verifiedAt: NOW - verifiedAgo * MINUTE }),
});

describe("stepUpDue", () => {
  it(`is false up to ${STEP_UP_MINUTES} minutes after the last proof, true after`, () => {
    expect(stepUpDue(session(60, STEP_UP_MINUTES), NOW)).toBe(false);
    expect(stepUpDue(session(60, STEP_UP_MINUTES + 0.01), NOW)).toBe(true);
    expect(stepUpDue(session(60, 0), NOW)).toBe(false);
  });

  it("takes the sign-in as the proof of a session sealed before verifiedAt existed", () => {
    expect(lastProofAt(session(3))).toBe(NOW - 3 * MINUTE);
    expect(stepUpDue(session(3), NOW)).toBe(false);
    expect(stepUpDue(session(STEP_UP_MINUTES + 1), NOW)).toBe(true);
  });
});

describe("sessionAfterStepUp", () => {
  it("keeps the session (its start, its single sign-on) and marks it proven now", () => {
    const before = { ...session(90, 30), ssoSessionId: "sso-1" };
    const after = sessionAfterStepUp(before, NOW);
    expect(after).toEqual({ ...before, verifiedAt: NOW });
    expect(stepUpDue(after, NOW + STEP_UP_MINUTES * MINUTE)).toBe(false);
  });
});

describe("stepUpMethods", () => {
  const store = useStore(sqliteBackend);
  const person = (email: string) =>
    createUser(store().db, { email, name: "P", role: "admin", password: "a sound passphrase for p" }, fast);
  const now = new Date(NOW).toISOString();

  it("offers the password to a password user with nothing enrolled, nothing to a single sign-on session", async () => {
    const user = await person("p1@x.test");
    expect(await stepUpMethods(store().db, user, {})).toEqual(["password"]);
    expect(await stepUpMethods(store().db, user, { ssoSessionId: "sso" })).toEqual([]);
    expect(await stepUpMethods(store().db, { ...user, identity: { issuer: "i", subject: "s" } }, {})).toEqual([]);
  });

  it("offers what he enrolled first; recovery codes only beside a passkey or an authenticator app", async () => {
    const user = await person("p2@x.test");
    const db = store().db;
    await db
      .insertInto("recovery_codes")
      .values({ id: crypto.randomUUID(), user_id: user.id, code_hash: "h", created_at: now })
      .execute();
    expect(await stepUpMethods(db, user, {})).toEqual(["password"]);
    await db
      .insertInto("totp_factors")
      .values({ user_id: user.id, secret_sealed: "s", confirmed_at: now, created_at: now })
      .execute();
    expect(await stepUpMethods(db, user, {})).toEqual(["totp", "recovery", "password"]);
    await db
      .insertInto("passkeys")
      .values({
        id: crypto.randomUUID(),
        user_id: user.id,
        credential_id: "c",
        public_key: "k",
        name: "Laptop",
        created_at: now,
      })
      .execute();
    expect(await stepUpMethods(db, user, { ssoSessionId: "sso" })).toEqual(["passkey", "totp", "recovery"]);
  });
});

describe("stepUpSentence", () => {
  it("names what he can confirm with", () => {
    const sentence = stepUpSentence(["totp", "password"]);
    expect(sentence).toContain(`more than ${STEP_UP_MINUTES} minutes old`);
    expect(sentence).toContain("Confirm with an authenticator code or your password through POST /api/auth/step-up");
    expect(stepUpSentence(["passkey", "totp", "recovery"])).toContain(
      "a passkey, an authenticator code or a recovery code (or sign in again with single sign-on)",
    );
  });

  it("tells a single sign-on person with nothing enrolled to sign in again", () => {
    expect(stepUpSentence([])).toContain("Sign out and sign in again with single sign-on");
  });
});
