// The re-check of single sign-on sessions. The session stays Gatehouse's own (iron-session), but at least every
// OIDC_RECHECK_MINUTES the provider must vouch for the user again, so that someone removed from the groups or
// disabled at the provider loses access at the next check instead of at the session's end:
// - with a refresh token (kept server-side, sealed): a refresh grant, on the request that finds the check due —
//   the new claims decide the role; a refused refresh ends the session;
// - without one: a silent sign-in (prompt=none) at the next page load; API calls meanwhile go on for one more
//   interval, then answer 401.
// A provider that does not answer is given one more interval (the check is retried at most once a minute); after
// that the session ends. Every refusal is audited; so is a role the groups changed.
import "server-only";

import type { SessionConfig } from "@/lib/config/session";
import { getSignInSettings, type OidcSettings } from "@/lib/config/oidc";
import type { Db } from "@/lib/db";
import { describeError, logEvent } from "@/lib/log";
import { processWide } from "@/lib/process-wide";

import { recordAudit, type AuditEntry } from "../audit";
import type { SessionData } from "../session";
import { getUserById, type User } from "../users";

import { isSsoError, providerConfig, PROVIDER_TIMEOUT_SECONDS, refreshSession, type SsoFailure } from "./provider";
import {
  claimCheck,
  confirmSsoSession,
  endSsoSession,
  getSsoSession,
  postponeCheck,
  type NoRole,
  type SsoSession,
} from "./sessions";
import { recheckWithClaims } from "./sign-in";

export type SsoCheck =
  | { ok: true; user: User }
  /**
   * The session may not go on as it is. `restart`: how a page continues — "silent" through the provider without a
   * page (prompt=none), "interactive" through its sign-in page, "login" to Gatehouse's sign-in page. An API call
   * answers 401 with `message`. `clearCookie` false keeps the cookie, so that the next page load goes through the
   * provider whichever request found out first: for a silent check, and for an ended session, where the provider
   * then says why (no group, disabled there); its row is gone, so the cookie opens nothing any more.
   */
  | {
      ok: false;
      failure: SsoFailure | null;
      restart: "silent" | "interactive" | "login";
      clearCookie: boolean;
      message: string;
    };

/** A re-check holds its session this long at most (a refresh, then userinfo, each with the provider's timeout). */
const CHECK_LEASE_MS = (2 * PROVIDER_TIMEOUT_SECONDS + 5) * 1000;
/** After a failed attempt to reach the provider, the next one waits this long (or a quarter of the interval). */
const RETRY_AFTER_MS = 60_000;

// Requests of one process that find the same check due share it, whichever bundle serves them.
const inFlight = () => processWide("oidc.rechecks", () => new Map<string, Promise<SsoCheck>>());

export interface SsoCheckInput {
  db: Db;
  config: { session: Pick<SessionConfig, "secrets"> };
  user: User;
  session: SessionData;
  /** A page render (can go through the provider) rather than an API call. */
  page: boolean;
  requestId?: string | null;
  now?: number;
  /** Default: the process's settings (lib/config/oidc.ts). */
  settings?: OidcSettings | null;
}

/** Whether this session may go on: password sessions always; single sign-on ones as the provider last said. */
export async function checkSsoSession(input: SsoCheckInput): Promise<SsoCheck> {
  const { session, user } = input;
  if (!session.ssoSessionId) return { ok: true, user };
  const settings = input.settings === undefined ? getSignInSettings().oidc : input.settings;
  const now = input.now ?? Date.now();
  if (!settings) {
    return {
      ok: false,
      failure: "sso_off",
      restart: "login",
      clearCookie: true,
      message:
        "Single sign-on has been turned off on this portal, so your session has ended. Sign in with your email and password.",
    };
  }
  const row = await getSsoSession(input.db, input.config.session.secrets, session.ssoSessionId);
  if (!row || row.userId !== user.id) return ended(settings, "sso_ended");
  // Another of his sessions (or his sign-in elsewhere) found that the groups give him no role any more.
  if (row.endedNoRole) return endedNoRole(settings, row.endedNoRole);
  if (now < row.checkedAt + settings.recheckMs) return { ok: true, user };

  const grace = now < row.checkedAt + 2 * settings.recheckMs;
  if (row.refreshToken === null) {
    if (input.page)
      return { ok: false, failure: null, restart: "silent", clearCookie: false, message: confirmAgain(settings) };
    return grace
      ? { ok: true, user }
      : { ok: false, failure: null, restart: "silent", clearCookie: false, message: confirmAgain(settings) };
  }

  const running = inFlight().get(row.id);
  if (running) return running;
  const check = refreshCheck(input, settings, { ...row, refreshToken: row.refreshToken }, now, grace).finally(() =>
    inFlight().delete(row.id),
  );
  inFlight().set(row.id, check);
  return check;
}

async function refreshCheck(
  input: SsoCheckInput,
  settings: OidcSettings,
  row: SsoSession & { refreshToken: string },
  now: number,
  grace: boolean,
): Promise<SsoCheck> {
  const { db, user } = input;
  // Another request or process holds the check (or a failed one is backing off): go on while in grace.
  if (!(await claimCheck(db, row.id, now, CHECK_LEASE_MS)))
    return grace ? { ok: true, user } : ended(settings, "sso_unconfirmed");

  let claims;
  let tokens;
  try {
    const config = await providerConfig(settings);
    tokens = await refreshSession(settings, config, row.refreshToken, row.subject);
    claims = tokens.claims;
  } catch (error) {
    const failure = isSsoError(error) ? error.failure : "sso_failed";
    logEvent(failure === "sso_unavailable" ? "warn" : "error", "sso_recheck_failed", {
      request_id: input.requestId ?? null,
      user_id: user.id,
      failure,
      detail: isSsoError(error) ? error.detail : describeError(error),
    });
    if (failure === "sso_unavailable") {
      // Not an answer about the user: keep the session for now, try again in a while.
      // A quarter of the interval at most, so that a provider back within the grace is asked again in time.
      await postponeCheck(db, row.id, now + Math.min(RETRY_AFTER_MS, settings.recheckMs / 4));
      if (grace) return { ok: true, user };
      await endSsoSession(db, row.id);
      await audit(db, input, { reason: "unconfirmed" }, settings);
      return ended(settings, "sso_unconfirmed");
    }
    await endSsoSession(db, row.id);
    await audit(db, input, { reason: failure === "sso_ended" ? "ended" : failure.replace(/^sso_/, "") }, settings);
    return ended(settings, "sso_ended");
  }

  const result = await recheckWithClaims(db, settings, user, claims, new Date(now));
  if (!result.ok) {
    await audit(db, input, result.refusal.detail, settings);
    return endedNoRole(settings, result.noRole);
  }
  await confirmSsoSession(db, input.config.session.secrets, row.id, {
    refreshToken: tokens.refreshToken,
    idToken: tokens.idToken,
    now,
  });
  if (result.roleChange) {
    await writeAudit(db, {
      userId: user.id,
      userEmail: user.email,
      action: "user.sso_role",
      target: { type: "user", id: user.id, label: user.email },
      outcome: "success",
      requestId: input.requestId ?? null,
      detail: { from: result.roleChange.from, to: result.roleChange.to, phase: "recheck", provider: settings.label },
    });
  }
  // The role may have changed: the caller goes on with the user as he is now.
  return { ok: true, user: (await getUserById(db, user.id)) ?? result.user };
}

function confirmAgain(settings: OidcSettings): string {
  return `Your sign-in must be confirmed again with ${settings.label}: reload the page to continue.`;
}

function ended(settings: OidcSettings, failure: "sso_ended" | "sso_unconfirmed"): SsoCheck {
  const message = {
    sso_ended: `${settings.label} no longer confirms your sign-in (your account there may be disabled or signed out), so your Gatehouse session has ended. Sign in again.`,
    sso_unconfirmed: `Your sign-in could not be re-checked with ${settings.label}, which is not answering, so your session has ended. Sign in again when it is back.`,
  }[failure];
  return { ok: false, failure, restart: "interactive", clearCookie: false, message };
}

/** How many of his groups the sentence names; the rest are counted. */
const GROUPS_NAMED = 5;

/** The provider's groups give him no role any more: the sentence names them (his own groups, told to him). */
function endedNoRole(settings: OidcSettings, { claim, values }: NoRole): SsoCheck {
  const named =
    values.slice(0, GROUPS_NAMED).join(", ") +
    (values.length > GROUPS_NAMED ? ` and ${values.length - GROUPS_NAMED} more` : "");
  const why =
    values.length === 0
      ? `it names no group for you any more (claim "${claim}")`
      : `your groups there (${named}) no longer give a role in Gatehouse`;
  const message = `Your access was re-checked with ${settings.label}: ${why}, so your session has ended. Ask an administrator which group you need.`;
  return { ok: false, failure: "sso_no_role", restart: "interactive", clearCookie: false, message };
}

async function audit(
  db: Db,
  input: SsoCheckInput,
  detail: Record<string, string | number | boolean | null | string[]>,
  settings: OidcSettings,
): Promise<void> {
  await writeAudit(db, {
    userId: input.user.id,
    userEmail: input.user.email,
    action: "auth.sso_refused",
    target: { type: "user", id: input.user.id, label: input.user.email },
    outcome: "denied",
    requestId: input.requestId ?? null,
    detail: { provider: settings.label, phase: "recheck", ...detail },
  });
}

/** A failed audit write is logged with the row, never thrown: the check's answer stands (as in lib/api/route.ts). */
async function writeAudit(db: Db, entry: AuditEntry): Promise<void> {
  try {
    await recordAudit(db, entry);
  } catch (error) {
    logEvent("error", "audit_write_failed", {
      request_id: entry.requestId,
      audit: { ...entry, target: entry.target ?? null },
      error: describeError(error),
    });
  }
}
