// One-click unsubscribe (RFC 8058) from a person's e-mail: the link carries a token sealed (lib/seal.ts: AES-GCM
// under a key derived for this purpose from the data key) holding who, from what (a topic, or "all" e-mail) and
// until when it works, so it proves itself without a session. Unsubscribing from a topic removes the person's
// subscriptions to it; from the digest, his digest is switched off (notification_preferences.digest_enabled = 0);
// from "all", his e-mail is (email_enabled = 0).
import "server-only";

import { z } from "zod";

import { isOneOf, NOTIFICATION_TOPICS, type NotificationTopic } from "@/lib/contract/values";
import type { Db } from "@/lib/db";
import { sealer } from "@/lib/seal";

import { absoluteLink } from "./links";

const tokenSealer = sealer("gatehouse notification unsubscribe token");
/** A link works this long after its mail was sent (mail is read late; a stale one is refused with a sentence). */
export const UNSUBSCRIBE_TOKEN_DAYS = 90;

/** A topic's mail, the weekly digest, or every e-mail. */
export type UnsubscribeScope = NotificationTopic | "digest" | "all";

const tokenShape = z.object({
  u: z.string().min(1),
  s: z.string().refine((s) => s === "all" || s === "digest" || isOneOf(NOTIFICATION_TOPICS, s)),
  e: z.number().int(),
});

export function unsubscribeToken(userId: string, scope: UnsubscribeScope, sealKey: string, now = new Date()): string {
  const e = Math.floor(now.getTime() / 1000) + UNSUBSCRIBE_TOKEN_DAYS * 86_400;
  return tokenSealer.seal(JSON.stringify({ u: userId, s: scope, e }), sealKey, "unsubscribe");
}

/** The API's address to POST (List-Unsubscribe) and the page's to open, for a token. */
export function unsubscribeLinks(token: string, publicOrigin: string | null): { post: string; page: string } {
  const query = `?token=${encodeURIComponent(token)}`;
  return {
    post: absoluteLink(`/api/notifications/unsubscribe${query}`, publicOrigin),
    page: absoluteLink(`/notifications/unsubscribe${query}`, publicOrigin),
  };
}

export type TokenCheck = { ok: true; userId: string; scope: UnsubscribeScope } | { ok: false; reason: string };

/** The token's person and scope, or why it is refused (altered, another key's, stale). */
export function openUnsubscribeToken(token: string, sealKey: string, now = new Date()): TokenCheck {
  const text = tokenSealer.open(token, sealKey, "unsubscribe");
  const parsed = text === null ? null : tokenShape.safeParse(safeJson(text));
  if (!parsed?.success)
    return {
      ok: false,
      reason:
        "This unsubscribe link is not valid: it was changed or cut short. Open the link of the e-mail as it came, or change your notifications in Gatehouse.",
    };
  if (parsed.data.e * 1000 < now.getTime())
    return {
      ok: false,
      reason: `This unsubscribe link is more than ${UNSUBSCRIBE_TOKEN_DAYS} days old. Use the link of a newer e-mail, or change your notifications in Gatehouse.`,
    };
  return { ok: true, userId: parsed.data.u, scope: parsed.data.s as UnsubscribeScope };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** Stops the mail the token names: the topic's subscriptions removed, or all e-mail off. A sentence saying so. */
export async function unsubscribe(db: Db, userId: string, scope: UnsubscribeScope, now = new Date()): Promise<string> {
  if (scope === "digest") {
    const at = now.toISOString();
    await db
      .insertInto("notification_preferences")
      .values({ user_id: userId, digest_enabled: 0, updated_at: at })
      .onConflict((conflict) => conflict.column("user_id").doUpdateSet({ digest_enabled: 0, updated_at: at }))
      .execute();
    return "You get no more weekly digest. Switch it on again in your notification settings.";
  }
  if (scope === "all") {
    const at = now.toISOString();
    await db
      .insertInto("notification_preferences")
      .values({ user_id: userId, email_enabled: 0, updated_at: at })
      .onConflict((conflict) => conflict.column("user_id").doUpdateSet({ email_enabled: 0, updated_at: at }))
      .execute();
    return "You get no more e-mail from Gatehouse. Switch it on again in your notification settings.";
  }
  await db
    .deleteFrom("notification_subscriptions")
    .where("subscriber_kind", "=", "user")
    .where("subscriber_id", "=", userId)
    .where("topic", "=", scope)
    .execute();
  return `You are unsubscribed from ${scope}: no more e-mail about it. Subscribe again in your notification settings.`;
}
