// The sign-in between its two steps. The password was right and the person has a second factor: instead of a
// session, the browser gets a sealed, HttpOnly cookie naming him, which lives SECOND_STEP_MINUTES and is cleared
// when the second step signs him in. It grants nothing by itself: only the second step's routes read it.
// SameSite=Strict: nothing but this site's own pages may carry it.
import "server-only";

import { z } from "zod";

import { SECOND_STEP_MINUTES } from "@/lib/contract/values";
import { sealer } from "@/lib/seal";

import type { SessionCookieStore, SessionSettings } from "../session";

export const PENDING_COOKIE_NAME = "gatehouse_2fa";
export const SECURE_PENDING_COOKIE_NAME = "__Host-gatehouse_2fa";
const TTL_MS = SECOND_STEP_MINUTES * 60_000;

const pendingSchema = z.object({
  userId: z.string().min(1),
  /** The user's session_version at the password: a password reset or a disable in between ends it too. */
  sessionVersion: z.number().int(),
  /** Where to go once signed in (a path of this site, already checked). */
  next: z.string().startsWith("/"),
  startedAt: z.number(),
});
export type PendingSignIn = z.infer<typeof pendingSchema>;

type CookieSettings = Pick<SessionSettings, "secrets" | "secure">;

const pendingSealer = sealer("gatehouse pending sign-in");

const cookieName = ({ secure }: Pick<SessionSettings, "secure">) =>
  secure ? SECURE_PENDING_COOKIE_NAME : PENDING_COOKIE_NAME;

/** Ask for the second step: the cookie that says whose password was right. */
export function writePendingSignIn(
  cookies: SessionCookieStore,
  pending: PendingSignIn,
  settings: CookieSettings,
): void {
  cookies.set(cookieName(settings), pendingSealer.seal(JSON.stringify(pending), settings.secrets), {
    httpOnly: true,
    secure: settings.secure,
    sameSite: "strict",
    path: "/",
    maxAge: TTL_MS / 1000,
  });
}

/** The sign-in waiting for its second step, or null: none, altered, sealed with an unknown secret, or too old. */
export function readPendingSignIn(
  cookies: SessionCookieStore,
  settings: CookieSettings,
  now: number = Date.now(),
): PendingSignIn | null {
  const sealed = cookies.get(cookieName(settings))?.value;
  if (!sealed) return null;
  const opened = pendingSealer.open(sealed, settings.secrets);
  if (opened === null) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(opened);
  } catch {
    return null;
  }
  const result = pendingSchema.safeParse(parsed);
  if (!result.success) return null;
  if (now - result.data.startedAt >= TTL_MS || result.data.startedAt > now) return null;
  return result.data;
}

export function clearPendingSignIn(cookies: SessionCookieStore, settings: Pick<SessionSettings, "secure">): void {
  cookies.set(cookieName(settings), "", {
    httpOnly: true,
    secure: settings.secure,
    sameSite: "strict",
    path: "/",
    maxAge: 0,
  });
}
