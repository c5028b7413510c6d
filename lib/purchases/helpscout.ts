// Help Scout's dynamic app: the secret Help Scout signs its requests with, and the check of that signature.
//
// An admin makes the secret on Admin → Helpdesk and pastes it into Help Scout's app; Help Scout signs each request's
// body with it (X-HelpScout-Signature: base64 of HMAC-SHA1 over the raw body, as its legacy dynamic apps do). The
// secret must be read back to check a signature, so unlike a token it cannot be kept as a hash: it is sealed at rest
// (lib/seal.ts) under a key derived from the data key (PURCHASE_CODE_HASH_KEY) for this purpose alone, with the
// helpdesk bound in, so a copy of the database alone does not give it away. Made on the server, shown once.
import "server-only";

import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

import type { HelpdeskSettings, HelpScoutSecretStatus } from "@/lib/contract/helpdesk";
import { HELPDESK_LAST_LOOKUPS, HELPSCOUT_SECRET_LENGTH } from "@/lib/contract/values";
import type { Db } from "@/lib/db";
import { logEvent } from "@/lib/log";
import { sealer } from "@/lib/seal";

import { lastHelpdeskChecks } from "./history";

const SYSTEM = "helpscout";

/** Seals and opens Help Scout's secret; one whose seal no longer opens (the data key changed) reads as none. */
const helpScoutSecretSealer = sealer("gatehouse helpscout secret seal");

/** The header Help Scout signs with (any letter case: HTTP header names are not case-sensitive). */
export const HELPSCOUT_SIGNATURE_HEADER = "x-helpscout-signature";

export interface HelpScoutSecretState {
  set: boolean;
  setAt: string | null;
  setBy: string | null;
}

/** A new secret: 30 random bytes in base64url, 40 characters, the most Help Scout takes. */
function generateHelpScoutSecret(): string {
  return randomBytes((HELPSCOUT_SECRET_LENGTH / 4) * 3).toString("base64url");
}

/** Whether a secret is set, when and by whom; never the secret. */
export async function helpScoutSecretState(db: Db): Promise<HelpScoutSecretState> {
  const row = await db
    .selectFrom("helpdesk_settings")
    .select(["set_at", "set_by"])
    .where("system", "=", SYSTEM)
    .executeTakeFirst();
  return row ? { set: true, setAt: row.set_at, setBy: row.set_by } : { set: false, setAt: null, setBy: null };
}

/** Makes a new secret, replacing any before it (whose signatures are refused from now on); answers it, this once. */
export async function makeHelpScoutSecret(
  db: Db,
  sealKey: string,
  setBy: string | null,
  now = new Date(),
): Promise<{ secret: string; state: HelpScoutSecretState; rotated: boolean }> {
  const rotated = (await helpScoutSecretState(db)).set;
  const secret = generateHelpScoutSecret();
  const row = {
    secret_sealed: helpScoutSecretSealer.seal(secret, sealKey, SYSTEM),
    set_at: now.toISOString(),
    set_by: setBy,
  };
  await db
    .insertInto("helpdesk_settings")
    .values({ system: SYSTEM, ...row })
    .onConflict((conflict) => conflict.column("system").doUpdateSet(row))
    .execute();
  return { secret, state: { set: true, setAt: row.set_at, setBy }, rotated };
}

/** Removes the secret: Help Scout's requests are refused until a new one is made. False when none was set. */
export async function removeHelpScoutSecret(db: Db): Promise<boolean> {
  const result = await db.deleteFrom("helpdesk_settings").where("system", "=", SYSTEM).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** The secret, to check a signature with; null when none is set, or its seal no longer opens. */
export async function helpScoutSecret(db: Db, sealKey: string): Promise<string | null> {
  const row = await db
    .selectFrom("helpdesk_settings")
    .select("secret_sealed")
    .where("system", "=", SYSTEM)
    .executeTakeFirst();
  if (!row) return null;
  const secret = helpScoutSecretSealer.open(row.secret_sealed, sealKey, SYSTEM);
  if (secret === null) {
    logEvent("error", "helpscout_secret_unreadable", {
      hint: "The data key (PURCHASE_CODE_HASH_KEY) changed since the secret was made: make a new one on Admin → Helpdesk and paste it into Help Scout",
    });
  }
  return secret;
}

/**
 * Whether `signature` (the header's value) is Help Scout's signature of these exact bytes — base64 of HMAC-SHA1
 * with the secret — compared in constant time.
 */
export function helpScoutSignatureMatches(raw: Uint8Array, signature: string | null, secret: string): boolean {
  if (signature === null) return false;
  const expected = createHmac("sha1", secret).update(raw).digest();
  const given = Buffer.from(signature.trim(), "base64");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Where Help Scout's app sends its requests: the Callback URL an admin pastes into Help Scout. */
export const HELPSCOUT_CALLBACK_PATH = "/api/helpdesk/helpscout";

/** The secret's state as the API and the page show it, with the Callback URL under the portal's origin. */
export function helpScoutSecretStatus(state: HelpScoutSecretState, origin: string): HelpScoutSecretStatus {
  return {
    set: state.set,
    set_at: state.setAt,
    set_by: state.setBy,
    callback_url: `${origin}${HELPSCOUT_CALLBACK_PATH}`,
  };
}

/** Admin → Helpdesk: Help Scout's secret (never itself) and each helpdesk's last checks. */
export async function helpdeskSettings(db: Db, origin: string): Promise<HelpdeskSettings> {
  const [state, zendesk, freshdesk, helpscout, other] = await Promise.all([
    helpScoutSecretState(db),
    lastHelpdeskChecks(db, "zendesk", HELPDESK_LAST_LOOKUPS),
    lastHelpdeskChecks(db, "freshdesk", HELPDESK_LAST_LOOKUPS),
    lastHelpdeskChecks(db, "helpscout", HELPDESK_LAST_LOOKUPS),
    lastHelpdeskChecks(db, "other", HELPDESK_LAST_LOOKUPS),
  ]);
  return {
    helpscout: helpScoutSecretStatus(state, origin),
    last_lookups: { zendesk, freshdesk, helpscout, other },
  };
}
