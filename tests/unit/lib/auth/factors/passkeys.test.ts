// Passkeys against a real store and @simplewebauthn/server, answered by the software authenticator: registration,
// the challenge (used once, expiring, bound to its purpose and person), the origin and relying party, the person a
// passkey belongs to, the counter, the list, and the last second factor. Time is passed in: no test waits.
import { describe, expect, it } from "vitest";

import {
  authenticationOptions,
  CHALLENGE_MINUTES,
  checkPasskeyAssertion,
  isPasskeyError,
  listPasskeys,
  registerPasskey,
  registrationOptions,
  relyingPartyOf,
  removePasskey,
  renamePasskey,
  signInWithPasskey,
  type RelyingParty,
} from "@/lib/auth/factors/passkeys";
import { createUser, updateUser } from "@/lib/auth/users";
import { PasskeyRegistrationSchema } from "@/lib/contract/passkeys";
import { PasskeyAssertionSchema } from "@/lib/contract/factors";
import type { Db } from "@/lib/db";

import { SoftwareAuthenticator } from "@/tests/support/software-authenticator";
import { fast, sqliteBackend, useStore } from "@/tests/support/store-backends";

const ORIGIN = "https://gatehouse.example.com";
const RP: RelyingParty = { origin: ORIGIN, rpID: "gatehouse.example.com" };
const T0 = Date.parse("2027-01-05T10:00:00.000Z");
const at = (ms = 0) => new Date(T0 + ms);

let people = 0;
async function person(db: Db) {
  people += 1;
  return createUser(
    db,
    { email: `pk-${people}@example.com`, name: `Person ${people}`, role: "viewer", password: "a long passphrase here" },
    fast,
  );
}

/** Registers a passkey for `user` on `device` and returns it. */
async function enrol(
  db: Db,
  user: { id: string; email: string; name: string },
  device: SoftwareAuthenticator,
  name = "Laptop",
  ms = 0,
) {
  const options = await registrationOptions(db, user, RP, at(ms));
  const response = PasskeyRegistrationSchema.parse(device.register(options, ORIGIN));
  return registerPasskey(db, user, { name, response }, RP, at(ms));
}

const assertion = (value: unknown) => PasskeyAssertionSchema.parse(value);

describe("passkeys", () => {
  const store = useStore(sqliteBackend);

  it("offers discoverable options with user verification, excluding his own passkeys", async () => {
    const { db } = store();
    const user = await person(db);
    const device = new SoftwareAuthenticator();
    const first = await registrationOptions(db, user, RP, at());
    expect(first).toMatchObject({
      rp: { id: "gatehouse.example.com", name: "Gatehouse" },
      user: { name: user.email, displayName: user.name },
      authenticatorSelection: { residentKey: "required", userVerification: "required" },
      attestation: "none",
      excludeCredentials: [],
    });
    await registerPasskey(
      db,
      user,
      { name: "Laptop", response: PasskeyRegistrationSchema.parse(device.register(first, ORIGIN)) },
      RP,
      at(),
    );
    const second = await registrationOptions(db, user, RP, at());
    expect(second.excludeCredentials?.map((c) => c.id)).toEqual([device.passkeys[0]!.id]);
  });

  it("keeps several named passkeys; lists, renames them; another person's id is none of his", async () => {
    const { db } = store();
    const [user, other] = [await person(db), await person(db)];
    const device = new SoftwareAuthenticator();
    const laptop = await enrol(db, user, device, "Laptop");
    const phone = await enrol(db, user, device, "Phone", 1000);
    expect((await listPasskeys(db, user.id)).map((p) => p.name)).toEqual(["Laptop", "Phone"]);
    expect(laptop).toMatchObject({ name: "Laptop", last_used_at: null, backed_up: false });
    expect(await renamePasskey(db, user.id, phone.id, "Old phone")).toMatchObject({ name: "Old phone" });
    expect(await renamePasskey(db, other.id, phone.id, "Mine now")).toBeNull();
    expect(await removePasskey(db, other.id, phone.id, { required: false })).toBeNull();
    expect((await listPasskeys(db, user.id)).map((p) => p.name)).toEqual(["Laptop", "Old phone"]);
  });

  it("refuses a registration for another origin, another relying party, without user verification, or replayed", async () => {
    const { db } = store();
    const user = await person(db);
    const device = new SoftwareAuthenticator();
    const refused = async (tweaks: Parameters<SoftwareAuthenticator["register"]>[2]) => {
      const options = await registrationOptions(db, user, RP, at());
      const response = PasskeyRegistrationSchema.parse(device.register(options, ORIGIN, tweaks));
      return registerPasskey(db, user, { name: "x", response }, RP, at()).then(
        () => "registered",
        (error: unknown) => (isPasskeyError(error) ? error.reason : String(error)),
      );
    };
    expect(await refused({ origin: "https://evil.example" })).toBe("not_verified");
    expect(await refused({ rpId: "evil.example" })).toBe("not_verified");
    expect(await refused({ noUserVerification: true })).toBe("not_verified");
    expect(await refused({ challenge: "bm90LWEtY2hhbGxlbmdl" })).toBe("not_verified");

    const options = await registrationOptions(db, user, RP, at());
    const response = PasskeyRegistrationSchema.parse(device.register(options, ORIGIN));
    await registerPasskey(db, user, { name: "Once", response }, RP, at());
    await expect(registerPasskey(db, user, { name: "Twice", response }, RP, at())).rejects.toMatchObject({
      reason: "not_verified",
    });
    expect(await listPasskeys(db, user.id)).toHaveLength(1);
  });

  it("checks an assertion once: its challenge is spent, stale after the minutes, for its purpose and person only", async () => {
    const { db } = store();
    const [user, other] = [await person(db), await person(db)];
    const device = new SoftwareAuthenticator();
    await enrol(db, user, device);

    const options = (await authenticationOptions(db, "second_factor", user.id, RP, at()))!;
    expect(options).toMatchObject({ rpId: "gatehouse.example.com", userVerification: "required" });
    expect(options.allowCredentials?.map((c) => c.id)).toEqual([device.passkeys[0]!.id]);
    const response = assertion(device.assert(options, ORIGIN));
    const check = (purpose: "second_factor" | "step_up", userId: string, ms = 0) =>
      checkPasskeyAssertion(db, { userId, response, purpose, origin: ORIGIN }, at(ms));
    // Another purpose or another person does not spend it…
    expect(await check("step_up", user.id)).toEqual({ ok: false });
    expect(await check("second_factor", other.id)).toEqual({ ok: false });
    // …the right one does, once.
    expect(await check("second_factor", user.id)).toEqual({ ok: true, userId: user.id });
    expect(await check("second_factor", user.id)).toEqual({ ok: false });
    expect((await listPasskeys(db, user.id))[0]!.last_used_at).toBe(at().toISOString());

    const late = (await authenticationOptions(db, "step_up", user.id, RP, at()))!;
    const lateResponse = assertion(device.assert(late, ORIGIN));
    expect(
      await checkPasskeyAssertion(
        db,
        { userId: user.id, response: lateResponse, purpose: "step_up", origin: ORIGIN },
        at(CHALLENGE_MINUTES * 60_000),
      ),
    ).toEqual({ ok: false });
  });

  it("refuses an assertion naming another origin, signed for another relying party, badly signed, or replaying a counter", async () => {
    const { db } = store();
    const user = await person(db);
    const device = new SoftwareAuthenticator();
    await enrol(db, user, device);
    const attempt = async (tweaks: Parameters<SoftwareAuthenticator["assert"]>[2], origin = ORIGIN) => {
      const options = (await authenticationOptions(db, "step_up", user.id, RP, at()))!;
      return checkPasskeyAssertion(
        db,
        { userId: user.id, response: assertion(device.assert(options, ORIGIN, tweaks)), purpose: "step_up", origin },
        at(),
      );
    };
    expect(await attempt({ origin: "https://evil.example" })).toEqual({ ok: false });
    expect(await attempt({ rpId: "evil.example" })).toEqual({ ok: false });
    expect(await attempt({ wrongSignature: true })).toEqual({ ok: false });
    expect(await attempt({ noUserVerification: true })).toEqual({ ok: false });
    // The portal's own origin at another address: the assertion named the right one, the portal is elsewhere.
    expect(await attempt({}, "https://other.example.com")).toEqual({ ok: false });
    expect(await attempt({})).toEqual({ ok: true, userId: user.id });
    // A cloned authenticator: its counter goes back.
    device.passkeys[0]!.counter = 0;
    expect(await attempt({})).toEqual({ ok: false });
  });

  it("signs in with a passkey alone: no credentials named, the passkey says whose it is; disabled or handle of another refused", async () => {
    const { db } = store();
    const [user, other] = [await person(db), await person(db)];
    const device = new SoftwareAuthenticator();
    await enrol(db, user, device);
    const signIn = async (extra: Parameters<SoftwareAuthenticator["assert"]>[2] = {}) => {
      const options = (await authenticationOptions(db, "sign_in", null, RP, at()))!;
      expect(options.allowCredentials).toBeUndefined();
      const response = assertion(device.assert(options, ORIGIN, extra));
      return signInWithPasskey(db, { response, origin: ORIGIN, ip: "203.0.113.5" }, at());
    };
    expect(await signIn()).toMatchObject({ ok: true, user: { id: user.id } });
    const otherHandle = Buffer.from(other.id).toString("base64url");
    expect(await signIn({ userHandle: otherHandle })).toMatchObject({ ok: false, reason: "wrong", userId: user.id });
    await updateUser(db, user.id, { disabled: true });
    expect(await signIn()).toMatchObject({ ok: false, reason: "wrong" });
  });

  it("counts wrong assertions toward the sign-in throttle, unknown passkeys by their address", async () => {
    const { db } = store();
    const user = await person(db);
    const device = new SoftwareAuthenticator();
    await enrol(db, user, device);
    const stranger = new SoftwareAuthenticator();
    stranger.register((await registrationOptions(db, await person(db), RP, at()))!, ORIGIN);
    const signIn = async (who: SoftwareAuthenticator, wrongSignature: boolean, ip: string) => {
      const options = (await authenticationOptions(db, "sign_in", null, RP, at()))!;
      const response = assertion(who.assert(options, ORIGIN, { wrongSignature }));
      return signInWithPasskey(db, { response, origin: ORIGIN, ip }, at());
    };
    for (let i = 0; i < 5; i++) expect(await signIn(device, true, "198.51.100.7")).toMatchObject({ reason: "wrong" });
    expect(await signIn(device, false, "198.51.100.7")).toMatchObject({ ok: false, reason: "throttled" });
    expect(await signIn(device, false, "198.51.100.8")).toMatchObject({ ok: true });
    for (let i = 0; i < 5; i++) expect(await signIn(stranger, false, "198.51.100.9")).toMatchObject({ userId: null });
    expect(await signIn(stranger, false, "198.51.100.9")).toMatchObject({ reason: "throttled" });
  });

  it("never removes the last second factor of someone who must have one", async () => {
    const { db } = store();
    const user = await person(db);
    const device = new SoftwareAuthenticator();
    const laptop = await enrol(db, user, device, "Laptop");
    const phone = await enrol(db, user, device, "Phone");
    expect(await removePasskey(db, user.id, laptop.id, { required: true })).toMatchObject({ name: "Laptop" });
    await expect(removePasskey(db, user.id, phone.id, { required: true })).rejects.toMatchObject({
      reason: "last_factor",
    });
    expect(await removePasskey(db, user.id, phone.id, { required: false })).toMatchObject({ name: "Phone" });
    expect(await listPasskeys(db, user.id)).toEqual([]);
  });

  it("has no options for the second step of someone without a passkey, and reads the relying party from the origin", async () => {
    const { db } = store();
    const user = await person(db);
    expect(await authenticationOptions(db, "second_factor", user.id, RP, at())).toBeNull();
    expect(await authenticationOptions(db, "step_up", null, RP, at())).toBeNull();
    expect(relyingPartyOf("http://localhost:4631")).toEqual({ origin: "http://localhost:4631", rpID: "localhost" });
    expect(relyingPartyOf(null)).toBeNull();
    expect(relyingPartyOf("not a url")).toBeNull();
  });

  it("prunes expired challenges when it makes one", async () => {
    const { db } = store();
    const user = await person(db);
    await registrationOptions(db, user, RP, at());
    await authenticationOptions(db, "sign_in", null, RP, at());
    const count = async () =>
      Number(
        (
          await db
            .selectFrom("auth_challenges")
            .select((e) => e.fn.countAll().as("n"))
            .executeTakeFirst()
        )?.n,
      );
    expect(await count()).toBe(2);
    await authenticationOptions(db, "sign_in", null, RP, at(CHALLENGE_MINUTES * 60_000 + 1));
    expect(await count()).toBe(1);
  });
});
