// The sign-in in flight. Between the start (the browser sent to the provider) and the callback, the browser keeps
// state, nonce and the PKCE verifier in a sealed, HttpOnly cookie that lives 10 minutes and is used once: the
// callback reads and clears it before anything else. SameSite=Lax, so the provider's redirect back (a top-level
// GET) carries it, while a request another site makes in the background does not.
import "server-only";

import { z } from "zod";

import { sealer } from "@/lib/seal";

import type { SessionCookieStore, SessionSettings } from "../session";

export const TRANSACTION_COOKIE_NAME = "gatehouse_sso";
export const SECURE_TRANSACTION_COOKIE_NAME = "__Host-gatehouse_sso";
export const TRANSACTION_TTL_MS = 10 * 60_000;

const transactionSchema = z.object({
  state: z.string().min(1),
  nonce: z.string().min(1),
  codeVerifier: z.string().min(43),
  /** The redirect URI sent to the provider: the token request must name the same. */
  redirectUri: z.url(),
  /** Where to go afterwards (a path of this site, already checked). */
  next: z.string().startsWith("/"),
  /** A silent re-check (prompt=none): "sign in again" answers lead to the provider's page instead of an error. */
  silent: z.boolean(),
  startedAt: z.number(),
});
export type SignInTransaction = z.infer<typeof transactionSchema>;

type CookieSettings = Pick<SessionSettings, "secrets" | "secure">;

// Sealed with the newest SESSION_SECRET, opened with any listed one (a rotation keeps a sign-in in flight working).
const transactionSealer = sealer("gatehouse sso transaction");

const cookieName = ({ secure }: Pick<SessionSettings, "secure">) =>
  secure ? SECURE_TRANSACTION_COOKIE_NAME : TRANSACTION_COOKIE_NAME;

export function writeTransaction(
  cookies: SessionCookieStore,
  transaction: SignInTransaction,
  settings: CookieSettings,
): void {
  const sealed = transactionSealer.seal(JSON.stringify(transaction), settings.secrets);
  cookies.set(cookieName(settings), sealed, {
    httpOnly: true,
    secure: settings.secure,
    sameSite: "lax",
    path: "/",
    maxAge: TRANSACTION_TTL_MS / 1000,
  });
}

/** The transaction this browser started, or null: none, altered, sealed with an unknown secret, or over 10 minutes old. */
export function readTransaction(
  cookies: SessionCookieStore,
  settings: CookieSettings,
  now: number = Date.now(),
): SignInTransaction | null {
  const sealed = cookies.get(cookieName(settings))?.value;
  if (!sealed) return null;
  const text = transactionSealer.open(sealed, settings.secrets);
  if (text === null) return null;
  let parsed;
  try {
    parsed = transactionSchema.safeParse(JSON.parse(text));
  } catch {
    return null;
  }
  if (!parsed.success || now - parsed.data.startedAt > TRANSACTION_TTL_MS || parsed.data.startedAt > now + 60_000)
    return null;
  return parsed.data;
}

export function clearTransaction(cookies: SessionCookieStore, settings: Pick<SessionSettings, "secure">): void {
  cookies.set(cookieName(settings), "", {
    httpOnly: true,
    secure: settings.secure,
    sameSite: "lax",
    path: "/",
    maxAge: 0,
  });
}
