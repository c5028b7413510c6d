// The authenticator app (TOTP, RFC 6238, through otplib): enrolment and the check of a code. The secret (base32,
// 20 random bytes) is sealed at rest (lib/seal.ts) under a key derived from the data key (PURCHASE_CODE_HASH_KEY,
// as webhook signing secrets are) with the person's id bound in, so that a copy of the database alone gives no
// secret away and a sealed secret moved to another person's row does not open. A code is accepted within one
// 30-second step either side of now, and once: the step of the code accepted is recorded by a conditional UPDATE
// (only when it is newer than the last one), so two instances given the same code cannot both accept it.
import "server-only";

import { generateSecret, generateURI, verify } from "otplib";
import QRCode from "qrcode";

import type { Db } from "@/lib/db";
import { getConfig } from "@/lib/config";
import { sealer } from "@/lib/seal";

const totpSealer = sealer("gatehouse totp secret seal");
const PERIOD_SECONDS = 30;
/** One step either side of now: a phone's clock a little off, or a code typed as it changed. */
const TOLERANCE_SECONDS = PERIOD_SECONDS;
const ISSUER = "Gatehouse";

/** The key the secrets are sealed under: the data key of the running configuration. */
async function dataKey(): Promise<string> {
  return (await getConfig()).dataKey;
}

export interface TotpEnrolment {
  /** The base32 secret, for typing into an app that cannot scan. */
  secret: string;
  /** otpauth://totp/Gatehouse:<email>?secret=…&issuer=Gatehouse: what the QR code holds. */
  uri: string;
  /** The QR code of `uri`, an SVG document (dark modules on a white ground, as phones' cameras read best). */
  qrSvg: string;
}

/**
 * Starts (or starts again) an enrolment: a new secret, sealed, unconfirmed. Refused (null) while he has a confirmed
 * app: he removes it first, so that a session left open cannot swap his factor quietly.
 */
export async function startTotpEnrolment(
  db: Db,
  user: { id: string; email: string },
  options: { sealKey?: string; now?: Date } = {},
): Promise<TotpEnrolment | null> {
  const existing = await db
    .selectFrom("totp_factors")
    .select("confirmed_at")
    .where("user_id", "=", user.id)
    .executeTakeFirst();
  if (existing?.confirmed_at) return null;
  const secret = generateSecret();
  const sealed = totpSealer.seal(secret, options.sealKey ?? (await dataKey()), user.id);
  const now = (options.now ?? new Date()).toISOString();
  await db
    .insertInto("totp_factors")
    .values({ user_id: user.id, secret_sealed: sealed, confirmed_at: null, last_used_step: null, created_at: now })
    .onConflict((c) =>
      c
        .column("user_id")
        .doUpdateSet({ secret_sealed: sealed, confirmed_at: null, last_used_step: null, created_at: now })
        .where("totp_factors.confirmed_at", "is", null),
    )
    .execute();
  const uri = generateURI({ issuer: ISSUER, label: user.email, secret });
  const qrSvg = await QRCode.toString(uri, { type: "svg", errorCorrectionLevel: "M", margin: 2 });
  return { secret, uri, qrSvg };
}

/** The time step (RFC 6238's T) `code` matches for `secret` within the window, after `after`; null when none. */
async function matchingStep(secret: string, code: string, now: Date, after: number | null): Promise<number | null> {
  if (!/^\d{6}$/.test(code)) return null;
  const result = await verify({
    secret,
    token: code,
    epoch: Math.floor(now.getTime() / 1000),
    epochTolerance: TOLERANCE_SECONDS,
    period: PERIOD_SECONDS,
    ...(after === null ? {} : { afterTimeStep: after }),
  });
  return result.valid && "timeStep" in result ? result.timeStep : null;
}

async function openSecret(
  db: Db,
  userId: string,
  sealKey: string | undefined,
): Promise<{ secret: string; confirmed: boolean; lastStep: number | null } | null> {
  const row = await db
    .selectFrom("totp_factors")
    .select(["secret_sealed", "confirmed_at", "last_used_step"])
    .where("user_id", "=", userId)
    .executeTakeFirst();
  if (!row) return null;
  const secret = totpSealer.open(row.secret_sealed, sealKey ?? (await dataKey()), userId);
  if (secret === null) return null;
  return { secret, confirmed: row.confirmed_at !== null, lastStep: row.last_used_step };
}

/** Records `step` as used, only when no code of it or a later step was: true when this call took it. */
async function takeStep(db: Db, userId: string, step: number, confirm: Date | null): Promise<boolean> {
  const result = await db
    .updateTable("totp_factors")
    .set({ last_used_step: step, ...(confirm ? { confirmed_at: confirm.toISOString() } : {}) })
    .where("user_id", "=", userId)
    .where("confirmed_at", confirm ? "is" : "is not", null)
    .where((e) => e.or([e("last_used_step", "is", null), e("last_used_step", "<", step)]))
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * Confirms the enrolment under way with a code from the app: true when it was right (the app is then his factor,
 * and that code's step is used). False when wrong, or no enrolment is under way (none started, or already confirmed).
 */
export async function confirmTotpEnrolment(
  db: Db,
  userId: string,
  code: string,
  options: { sealKey?: string; now?: Date } = {},
): Promise<boolean> {
  const now = options.now ?? new Date();
  const factor = await openSecret(db, userId, options.sealKey);
  if (!factor || factor.confirmed) return false;
  const step = await matchingStep(factor.secret, code, now, factor.lastStep);
  return step !== null && takeStep(db, userId, step, now);
}

/**
 * Whether `code` (6 digits) is the person's current code, within one step either side, and not used before: a code
 * accepted is recorded (its step), so that it and every older one are refused afterwards.
 */
export async function checkTotpCode(
  db: Db,
  userId: string,
  code: string,
  now: Date = new Date(),
  sealKey?: string,
): Promise<boolean> {
  const factor = await openSecret(db, userId, sealKey);
  if (!factor || !factor.confirmed) return false;
  const step = await matchingStep(factor.secret, code, now, factor.lastStep);
  return step !== null && takeStep(db, userId, step, null);
}

/** Removes his app (confirmed or not); true when there was one. */
export async function removeTotp(db: Db, userId: string): Promise<boolean> {
  const result = await db.deleteFrom("totp_factors").where("user_id", "=", userId).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** Whether he has an app: none, one being added (unconfirmed), or one confirmed (his factor). */
export async function totpStatus(db: Db, userId: string): Promise<"none" | "pending" | "confirmed"> {
  const row = await db
    .selectFrom("totp_factors")
    .select("confirmed_at")
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return !row ? "none" : row.confirmed_at ? "confirmed" : "pending";
}
