// Passkeys (WebAuthn, through @simplewebauthn/server): registration, the options of an assertion, the check of one,
// and a person's list (rename, remove). Several per person, each named; discoverable (residentKey "required") so
// that one signs in alone, and user verification required (the device's PIN or biometrics), so that a passkey is a
// factor of two by itself.
//
// Every ceremony starts with a challenge kept in auth_challenges (any instance can check the answer): bound to its
// purpose and, but for a sign-in with a passkey alone, to the person; used once (one UPDATE that only an unused,
// unexpired row passes, so that two answers racing with the same challenge cannot both win); expired after
// CHALLENGE_MINUTES; old rows pruned whenever one is made. The answer must name the portal's origin (lib/auth/
// request.ts portalOrigin) and be signed for its host name as the relying party's id.
import "server-only";

import { randomUUID } from "node:crypto";

import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from "@simplewebauthn/server";
import { isoBase64URL } from "@simplewebauthn/server/helpers";

import { hasBrand } from "@/lib/brand";
import { writeTransaction, type Db } from "@/lib/db";
import type { PasskeyAssertion } from "@/lib/contract/factors";
import type { PasskeyOutput, PasskeyRegistration } from "@/lib/contract/passkeys";
import { MAX_PASSKEYS_PER_USER } from "@/lib/contract/values";
import { describeError, logEvent } from "@/lib/log";

import { checkLoginThrottle, forgiveLoginAttempt, recordLoginFailure, reserveLoginAttempt } from "../throttle";
import { getUserById, type User } from "../users";
import { factorSummary } from "./summary";

/** What an assertion is for: a sign-in with a passkey alone, the second step after a password, a step-up. */
export type AssertionPurpose = "sign_in" | "second_factor" | "step_up";
type ChallengePurpose = AssertionPurpose | "register";

/** How long a challenge may be answered. */
export const CHALLENGE_MINUTES = 5;
const CHALLENGE_MS = CHALLENGE_MINUTES * 60_000;
/** What the browser is told to wait for the person (the challenge lives longer). */
const CEREMONY_TIMEOUT_MS = 2 * 60_000;
/**
 * Open challenges for a sign-in with a passkey alone (anyone may ask for one): past this many at once, new ones
 * wait (503) until old ones expire, so that a flood of requests cannot grow the table without bound.
 */
export const MAX_OPEN_SIGN_IN_CHALLENGES = 5_000;
/** The throttle's account key for an assertion from a passkey nobody here has: counted per address. */
const UNKNOWN_PASSKEY_ACCOUNT = "(unknown passkey)";
const RP_NAME = "Gatehouse";

/** Why a passkey operation was refused (the route says it in a sentence). */
export type PasskeyRefusal = "too_many" | "already_registered" | "not_verified" | "last_factor" | "busy";

const PASSKEY_ERROR: unique symbol = Symbol.for("gatehouse.PasskeyError");

export class PasskeyError extends Error {
  readonly [PASSKEY_ERROR] = true;
  override name = "PasskeyError";
  constructor(readonly reason: PasskeyRefusal) {
    super(`passkey refused: ${reason}`);
  }
}

/** A PasskeyError of any copy of this module (see lib/brand.ts: never `instanceof`). */
export function isPasskeyError(error: unknown): error is PasskeyError {
  return hasBrand(error, PASSKEY_ERROR);
}

/** The relying party as the browser sees the portal: its origin and the host name of it (the RP ID). */
export interface RelyingParty {
  origin: string;
  rpID: string;
}

/** The relying party of `origin` (lib/auth/request.ts portalOrigin), or null when there is no usable origin. */
export function relyingPartyOf(origin: string | null): RelyingParty | null {
  if (!origin) return null;
  try {
    const url = new URL(origin);
    return url.hostname ? { origin: url.origin, rpID: url.hostname } : null;
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------------------------------------------------
// Challenges

async function issueChallenge(
  db: Db,
  purpose: ChallengePurpose,
  userId: string | null,
  now: Date,
): Promise<{ challenge: Uint8Array<ArrayBuffer> } | { busy: true }> {
  const at = now.toISOString();
  // Expired rows go (used ones too, once expired): the table holds only the minutes in flight.
  await db.deleteFrom("auth_challenges").where("expires_at", "<=", at).execute();
  if (purpose === "sign_in") {
    const open = await db
      .selectFrom("auth_challenges")
      .select((e) => e.fn.countAll<number | string>().as("n"))
      .where("purpose", "=", "sign_in")
      .where("used_at", "is", null)
      .executeTakeFirst();
    if (Number(open?.n ?? 0) >= MAX_OPEN_SIGN_IN_CHALLENGES) return { busy: true };
  }
  // Kept as the options and the client data carry it: base64url.
  const challenge = crypto.getRandomValues(new Uint8Array(32));
  await db
    .insertInto("auth_challenges")
    .values({
      id: randomUUID(),
      challenge: isoBase64URL.fromBuffer(challenge),
      purpose,
      user_id: userId,
      expires_at: new Date(now.getTime() + CHALLENGE_MS).toISOString(),
      created_at: at,
    })
    .execute();
  return { challenge };
}

/**
 * Uses the challenge: true when it was this site's, for this purpose and person, unused and unexpired. One UPDATE,
 * so that of two answers with the same challenge only one passes.
 */
async function spendChallenge(
  db: Db,
  challenge: string,
  purpose: ChallengePurpose,
  userId: string | null,
  now: Date,
): Promise<boolean> {
  const at = now.toISOString();
  let update = db
    .updateTable("auth_challenges")
    .set({ used_at: at })
    .where("challenge", "=", challenge)
    .where("purpose", "=", purpose)
    .where("used_at", "is", null)
    .where("expires_at", ">", at);
  update = userId === null ? update.where("user_id", "is", null) : update.where("user_id", "=", userId);
  const result = await update.executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The challenge the browser signed, read from its clientDataJSON (checked again by the library). */
function challengeOf(clientDataJSON: string): string | null {
  try {
    const parsed: unknown = JSON.parse(isoBase64URL.toUTF8String(clientDataJSON));
    const challenge = (parsed as { challenge?: unknown } | null)?.challenge;
    return typeof challenge === "string" && challenge.length > 0 && challenge.length <= 512 ? challenge : null;
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------------------------------------------------
// Registration

type PasskeyRow = Awaited<ReturnType<typeof passkeyRows>>[number];

function passkeyRows(db: Db, userId: string) {
  return db
    .selectFrom("passkeys")
    .selectAll()
    .where("user_id", "=", userId)
    .orderBy("created_at", "asc")
    .orderBy("id", "asc")
    .execute();
}

function transportsOf(row: Pick<PasskeyRow, "transports">): AuthenticatorTransport[] {
  try {
    const parsed: unknown = JSON.parse(row.transports);
    return Array.isArray(parsed) ? parsed.filter((t): t is AuthenticatorTransport => typeof t === "string") : [];
  } catch {
    return [];
  }
}

/** The WebAuthn user handle of a person: his id's bytes (no email, no name: it is stored on the device). */
const userHandleOf = (userId: string) => new TextEncoder().encode(userId);

/** The options of navigator.credentials.create for a new passkey of `user` (his own are excluded). */
export async function registrationOptions(
  db: Db,
  user: Pick<User, "id" | "email" | "name">,
  rp: RelyingParty,
  now: Date = new Date(),
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const existing = await passkeyRows(db, user.id);
  if (existing.length >= MAX_PASSKEYS_PER_USER) throw new PasskeyError("too_many");
  const issued = await issueChallenge(db, "register", user.id, now);
  if ("busy" in issued) throw new PasskeyError("busy");
  return generateRegistrationOptions({
    rpName: RP_NAME,
    rpID: rp.rpID,
    userName: user.email,
    userDisplayName: user.name,
    userID: userHandleOf(user.id),
    challenge: issued.challenge,
    timeout: CEREMONY_TIMEOUT_MS,
    attestationType: "none",
    excludeCredentials: existing.map((row) => ({ id: row.credential_id, transports: transportsOf(row) })),
    authenticatorSelection: { residentKey: "required", userVerification: "required" },
  });
}

/**
 * Checks the browser's answer to registrationOptions (its challenge used now) and keeps the passkey under `name`.
 * Throws PasskeyError: not_verified (wrong challenge, origin, relying party, no user verification…), too_many,
 * already_registered.
 */
export async function registerPasskey(
  db: Db,
  user: Pick<User, "id">,
  input: { name: string; response: PasskeyRegistration },
  rp: RelyingParty,
  now: Date = new Date(),
): Promise<PasskeyOutput> {
  const challenge = challengeOf(input.response.response.clientDataJSON);
  if (challenge === null || !(await spendChallenge(db, challenge, "register", user.id, now)))
    throw new PasskeyError("not_verified");
  let verified;
  try {
    verified = await verifyRegistrationResponse({
      response: input.response as unknown as RegistrationResponseJSON,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.rpID,
      requireUserVerification: true,
    });
  } catch (error) {
    logEvent("info", "passkey_registration_refused", { user_id: user.id, error: describeError(error) });
    throw new PasskeyError("not_verified");
  }
  if (!verified.verified) throw new PasskeyError("not_verified");
  const info = verified.registrationInfo;
  const row = {
    id: randomUUID(),
    user_id: user.id,
    credential_id: info.credential.id,
    public_key: isoBase64URL.fromBuffer(info.credential.publicKey),
    counter: info.credential.counter,
    transports: JSON.stringify(info.credential.transports ?? input.response.response.transports ?? []),
    device_type: info.credentialDeviceType,
    backed_up: info.credentialBackedUp ? 1 : 0,
    name: input.name,
    created_at: now.toISOString(),
  };
  await writeTransaction(db, async (trx) => {
    const count = await trx
      .selectFrom("passkeys")
      .select((e) => e.fn.countAll<number | string>().as("n"))
      .where("user_id", "=", user.id)
      .executeTakeFirst();
    if (Number(count?.n ?? 0) >= MAX_PASSKEYS_PER_USER) throw new PasskeyError("too_many");
    const taken = await trx
      .selectFrom("passkeys")
      .select("id")
      .where("credential_id", "=", row.credential_id)
      .executeTakeFirst();
    if (taken) throw new PasskeyError("already_registered");
    await trx.insertInto("passkeys").values(row).execute();
  });
  return passkeyOutput({ ...row, last_used_at: null });
}

// ---------------------------------------------------------------------------------------------------------
// Assertions

/**
 * The options of navigator.credentials.get: for a sign-in with a passkey alone none are named (the browser offers
 * this site's discoverable passkeys); otherwise the person's. Null for the second step or a step-up of a person
 * without a passkey. Throws PasskeyError("busy") when too many sign-in challenges are open.
 */
export async function authenticationOptions(
  db: Db,
  purpose: AssertionPurpose,
  userId: string | null,
  rp: RelyingParty,
  now: Date = new Date(),
): Promise<PublicKeyCredentialRequestOptionsJSON | null> {
  const owner = purpose === "sign_in" ? null : userId;
  if (purpose !== "sign_in" && owner === null) return null;
  const rows = owner === null ? [] : await passkeyRows(db, owner);
  if (owner !== null && rows.length === 0) return null;
  const issued = await issueChallenge(db, purpose, owner, now);
  if ("busy" in issued) throw new PasskeyError("busy");
  return generateAuthenticationOptions({
    rpID: rp.rpID,
    challenge: issued.challenge,
    timeout: CEREMONY_TIMEOUT_MS,
    userVerification: "required",
    ...(owner === null
      ? {}
      : { allowCredentials: rows.map((row) => ({ id: row.credential_id, transports: transportsOf(row) })) }),
  });
}

/**
 * Checks an assertion against a challenge this site issued for `purpose` (unused, unexpired: it is used now), the
 * site's origin and one of the person's passkeys (`userId`; null for a sign-in with a passkey alone, where the
 * passkey says whose it is). On success, the person's id; the passkey's counter and last use are updated.
 */
export async function checkPasskeyAssertion(
  db: Db,
  input: { userId: string | null; response: PasskeyAssertion; purpose: AssertionPurpose; origin: string },
  now: Date = new Date(),
): Promise<{ ok: true; userId: string } | { ok: false }> {
  const rp = relyingPartyOf(input.origin);
  const challenge = challengeOf(input.response.response.clientDataJSON);
  if (rp === null || challenge === null) return { ok: false };
  const owner = input.purpose === "sign_in" ? null : input.userId;
  if (input.purpose !== "sign_in" && owner === null) return { ok: false };
  if (!(await spendChallenge(db, challenge, input.purpose, owner, now))) return { ok: false };

  const row = await db
    .selectFrom("passkeys")
    .selectAll()
    .where("credential_id", "=", input.response.id)
    .executeTakeFirst();
  if (!row || (owner !== null && row.user_id !== owner)) return { ok: false };
  // A discoverable passkey names its person too: it must be the one the passkey was registered for.
  const handle = input.response.response.userHandle;
  if (handle !== undefined && handle !== isoBase64URL.fromBuffer(userHandleOf(row.user_id))) return { ok: false };

  let verified;
  try {
    verified = await verifyAuthenticationResponse({
      response: input.response as unknown as AuthenticationResponseJSON,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.rpID,
      credential: {
        id: row.credential_id,
        publicKey: isoBase64URL.toBuffer(row.public_key),
        counter: Number(row.counter),
        transports: transportsOf(row),
      },
      requireUserVerification: true,
    });
  } catch (error) {
    logEvent("info", "passkey_assertion_refused", { passkey_id: row.id, error: describeError(error) });
    return { ok: false };
  }
  if (!verified.verified) return { ok: false };
  await db
    .updateTable("passkeys")
    .set({
      counter: verified.authenticationInfo.newCounter,
      backed_up: verified.authenticationInfo.credentialBackedUp ? 1 : 0,
      last_used_at: now.toISOString(),
    })
    .where("id", "=", row.id)
    .execute();
  return { ok: true, userId: row.user_id };
}

export type PasskeySignIn =
  | { ok: true; user: User }
  | { ok: false; reason: "wrong"; userId: string | null }
  | { ok: false; reason: "throttled"; retryAfterSeconds: number; userId: string | null };

/**
 * A sign-in with a passkey alone, through the sign-in throttle as a password is: the passkey's owner is the
 * account (an unknown passkey counts for its address alone), a wrong assertion a failure, a right one forgives
 * the account's failures from this address. A disabled person is refused as a wrong assertion is.
 */
export async function signInWithPasskey(
  db: Db,
  input: { response: PasskeyAssertion; origin: string; ip: string | null },
  now: Date = new Date(),
): Promise<PasskeySignIn> {
  const owned = await db
    .selectFrom("passkeys")
    .select("user_id")
    .where("credential_id", "=", input.response.id)
    .executeTakeFirst();
  const owner = owned ? await getUserById(db, owned.user_id) : null;
  const who = { email: owner?.email ?? UNKNOWN_PASSKEY_ACCOUNT, ip: input.ip };
  const userId = owner?.id ?? null;
  const decision = await checkLoginThrottle(db, who, { now });
  if (!decision.allowed)
    return { ok: false, reason: "throttled", retryAfterSeconds: decision.retryAfterSeconds, userId };
  const reservation = await reserveLoginAttempt(db, who, { now });
  if (!reservation.reserved)
    return { ok: false, reason: "throttled", retryAfterSeconds: reservation.decision.retryAfterSeconds, userId };
  const checked = await checkPasskeyAssertion(
    db,
    { userId: null, response: input.response, purpose: "sign_in", origin: input.origin },
    now,
  );
  if (checked.ok && owner && checked.userId === owner.id && !owner.disabled) {
    await forgiveLoginAttempt(db, who, reservation.id);
    return { ok: true, user: owner };
  }
  await recordLoginFailure(db, { now });
  return { ok: false, reason: "wrong", userId };
}

// ---------------------------------------------------------------------------------------------------------
// His list

function passkeyOutput(
  row: Pick<PasskeyRow, "id" | "name" | "created_at" | "last_used_at" | "backed_up">,
): PasskeyOutput {
  return {
    id: row.id,
    name: row.name,
    created_at: row.created_at,
    last_used_at: row.last_used_at,
    backed_up: Number(row.backed_up) === 1,
  };
}

export async function listPasskeys(db: Db, userId: string): Promise<PasskeyOutput[]> {
  return (await passkeyRows(db, userId)).map(passkeyOutput);
}

/** Renames one of his passkeys; null when he has none with that id (another person's is none of his). */
export async function renamePasskey(db: Db, userId: string, id: string, name: string): Promise<PasskeyOutput | null> {
  await db.updateTable("passkeys").set({ name }).where("id", "=", id).where("user_id", "=", userId).execute();
  const row = await db
    .selectFrom("passkeys")
    .selectAll()
    .where("id", "=", id)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return row ? passkeyOutput(row) : null;
}

/**
 * Removes one of his passkeys; null when he has none with that id. `required`: he must keep a second factor (the
 * policy covers his role, or he is the break-glass admin): the last one is then refused (PasskeyError last_factor).
 */
export async function removePasskey(
  db: Db,
  userId: string,
  id: string,
  { required }: { required: boolean },
): Promise<PasskeyOutput | null> {
  return writeTransaction(db, async (trx) => {
    const row = await trx
      .selectFrom("passkeys")
      .selectAll()
      .where("id", "=", id)
      .where("user_id", "=", userId)
      .executeTakeFirst();
    if (!row) return null;
    if (required) {
      const summary = await factorSummary(trx, userId);
      if (summary.passkeys <= 1 && !summary.totp) throw new PasskeyError("last_factor");
    }
    await trx.deleteFrom("passkeys").where("id", "=", id).execute();
    return passkeyOutput(row);
  });
}
