// A purchase over its life. Each code the item service says is valid is known (known_purchases: its item, licence,
// support end), so that when it refuses the code later the check says "revoked" (a refunded or reversed sale) and
// `purchase.revoked` is sent once; support that ends within the admin's notice period is said in the verdict; a
// code checked from more tickets, tokens or addresses than the admin allows is flagged "possibly shared"; and
// while the item service is down, a code checked before answers with its last verdict and waits, sealed, for a
// re-check (purchase_rechecks). The sweep (./sweep.ts) re-checks known codes on a schedule. Every caller (the
// checker, bulk jobs, helpdesks, the sweep) settles a verdict through here, the one home of these rules.
import "server-only";

import { sql } from "kysely";

import { hashPurchaseCode } from "@/lib/auth/audit";
import {
  DEFAULT_LIFECYCLE_SETTINGS,
  NO_LIFECYCLE,
  PurchaseLifecycleSettingsSchema,
  type LastVerdict,
  type PreviousPurchase,
  type PurchaseLifecycle,
  type PurchaseLifecycleSettings,
  type SharedSuspicion,
} from "@/lib/contract/purchase-lifecycle";
import { purchaseCodeLast4, supportOf } from "@/lib/contract/purchase-code";
import type { Purchase } from "@/lib/contract/purchases";
import type { Db } from "@/lib/db";
import type { KnownPurchasesTable } from "@/lib/db/schema";
import { emitEvent } from "@/lib/events";
import { describeError, logEvent } from "@/lib/log";
import { sealer } from "@/lib/seal";
import { isUpstreamError } from "@/lib/upstream";

import type { ItemServiceAnswer } from "./check";

/** Seals the codes the sweep re-checks and those waiting for a re-check after an outage, with the data key. */
export const lifecycleCodeSealer = sealer("gatehouse purchase lifecycle code seal");

const DAY_MS = 86_400_000;
const SETTINGS_NAME = "lifecycle";

// ---------------------------------------------------------------------------------------------------------
// Settings

/** The admin's settings; the defaults until an admin saves some (a row that no longer parses reads as them too). */
export async function lifecycleSettings(db: Db): Promise<PurchaseLifecycleSettings> {
  const row = await db
    .selectFrom("purchase_settings")
    .select("value")
    .where("name", "=", SETTINGS_NAME)
    .executeTakeFirst();
  if (!row) return DEFAULT_LIFECYCLE_SETTINGS;
  try {
    const parsed = PurchaseLifecycleSettingsSchema.safeParse(JSON.parse(row.value));
    if (parsed.success) return parsed.data;
  } catch {
    // Falls through to the defaults, logged.
  }
  logEvent("error", "purchase_lifecycle_settings_unreadable", {});
  return DEFAULT_LIFECYCLE_SETTINGS;
}

/** Whether the sweep re-checks this item's codes. */
export function sweepCovers(settings: PurchaseLifecycleSettings, itemId: number): boolean {
  return settings.sweep.enabled && (settings.sweep.items === "all" || settings.sweep.items.includes(itemId));
}

/** The item's renewal link, set by an admin; null when none. */
export async function renewalUrlOf(db: Db, itemId: number): Promise<string | null> {
  const row = await db
    .selectFrom("item_settings")
    .select("renewal_url")
    .where("item_id", "=", itemId)
    .executeTakeFirst();
  return row?.renewal_url ?? null;
}

// ---------------------------------------------------------------------------------------------------------
// Settling a verdict

export interface LifecycleDeps {
  db: Db;
  hashKey: string;
  /** The admin's settings, read once for the check (lifecycleSettings). */
  settings: PurchaseLifecycleSettings;
}

/** A verdict as the history keeps it and the caller answers it. */
export interface SettledVerdict {
  outcome: "valid" | "invalid" | "revoked";
  /** Not valid: the words for the person (for a revoked code, what it was and that it is no longer valid). */
  reason: string | null;
  lifecycle: PurchaseLifecycle;
}

type KnownRow = KnownPurchasesTable;

/** What is known of a code seen valid (by the hashes of its forms), or undefined for one never seen valid. */
export async function knownPurchase(db: Db, hashes: readonly string[]): Promise<KnownRow | undefined> {
  return db
    .selectFrom("known_purchases")
    .selectAll()
    .where("code_hash", "in", [...hashes])
    .orderBy("last_valid_at", "desc")
    .limit(1)
    .executeTakeFirst();
}

function previousOf(row: KnownRow): PreviousPurchase {
  return {
    first_valid_at: row.first_valid_at,
    last_valid_at: row.last_valid_at,
    item: { id: Number(row.item_id), name: row.item_name },
    license_type: row.license_type,
    supported_until: row.supported_until,
    sold_at: row.sold_at,
  };
}

const DAY_FORMAT = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "short",
  year: "numeric",
  timeZone: "UTC",
});

/** "Valid on 3 Mar 2026 (Regular License, item Aurora), not valid now: the sale was probably refunded or reversed." */
export function revokedSentence(previous: PreviousPurchase): string {
  const on = DAY_FORMAT.format(new Date(previous.last_valid_at));
  return `Valid on ${on} (${previous.license_type}, item ${previous.item.name}), not valid now: the sale was probably refunded or reversed.`;
}

/** Days of support left, when it ends within the notice period; null otherwise (ended, none, or further off). */
export function supportEndsInDays(
  supportedUntil: string | null | undefined,
  noticeDays: number,
  now: Date,
): number | null {
  if (!supportedUntil) return null;
  const left = Date.parse(supportedUntil) - now.getTime();
  if (Number.isNaN(left) || left <= 0 || left > noticeDays * DAY_MS) return null;
  return Math.floor(left / DAY_MS);
}

/**
 * Settles what the item service answered about `code` (`forms`: the forms it may have been checked in, its own
 * first): a valid purchase is remembered (sealed for the sweep when it covers the item); a refusal of a code known
 * valid is a revocation, announced once. Read before the check is recorded.
 */
export async function settleAnswer(
  { db, hashKey, settings }: LifecycleDeps,
  { code, forms, answer, at }: { code: string; forms: readonly string[]; answer: ItemServiceAnswer; at: Date },
): Promise<SettledVerdict> {
  if (answer.status === "valid") {
    await rememberValid(db, hashKey, code, answer.purchase, at, settings);
    const { supported_until: until, item } = answer.purchase;
    const endsIn = supportEndsInDays(until, settings.support_expiring_days, at);
    const ended = supportOf(true, until ?? null, at.getTime()) === "expired";
    return {
      outcome: "valid",
      reason: null,
      lifecycle: {
        ...NO_LIFECYCLE,
        support_ends_in_days: endsIn,
        renewal_url: endsIn !== null || ended ? await renewalUrlOf(db, item.id) : null,
      },
    };
  }
  const known = await knownPurchase(
    db,
    forms.map((form) => hashPurchaseCode(form, hashKey)),
  );
  if (!known) return { outcome: "invalid", reason: answer.reason, lifecycle: NO_LIFECYCLE };
  const previous = previousOf(known);
  const revokedNow = await db
    .updateTable("known_purchases")
    .set({ status: "revoked", revoked_at: at.toISOString(), verified_at: at.toISOString(), code_sealed: null })
    .where("code_hash", "=", known.code_hash)
    .where("status", "=", "valid")
    .executeTakeFirst();
  if (Number(revokedNow.numUpdatedRows) === 1) {
    await emitEvent({
      type: "purchase.revoked",
      occurredAt: at,
      data: { code_hash: known.code_hash, code_last4: known.code_last4, previously_valid: previous },
    });
  } else {
    await db
      .updateTable("known_purchases")
      .set({ verified_at: at.toISOString() })
      .where("code_hash", "=", known.code_hash)
      .execute();
  }
  return {
    outcome: "revoked",
    reason: revokedSentence(previous),
    lifecycle: { ...NO_LIFECYCLE, revoked: true, previously_valid: previous },
  };
}

async function rememberValid(
  db: Db,
  hashKey: string,
  code: string,
  purchase: Purchase,
  at: Date,
  settings: PurchaseLifecycleSettings,
): Promise<void> {
  const when = at.toISOString();
  const facts = {
    item_id: purchase.item.id,
    item_name: purchase.item.name,
    license_type: purchase.license_type,
    supported_until: purchase.supported_until ?? null,
    sold_at: purchase.date,
    last_valid_at: when,
    status: "valid",
    verified_at: when,
    revoked_at: null,
    code_sealed: sweepCovers(settings, purchase.item.id) ? lifecycleCodeSealer.seal(code, hashKey) : null,
  };
  await db
    .insertInto("known_purchases")
    .values({
      code_hash: hashPurchaseCode(code, hashKey),
      code_last4: purchaseCodeLast4(code),
      first_valid_at: when,
      ...facts,
    })
    .onConflict((conflict) => conflict.column("code_hash").doUpdateSet(facts))
    .execute();
}

// ---------------------------------------------------------------------------------------------------------
// Possibly shared

/**
 * Counts the places (helpdesk tickets, API tokens, client addresses) that checked the code within the window, the
 * check just recorded included; past a threshold the code is flagged, `purchase.shared_suspected` sent once per
 * known purchase, and the newest check of it marked. Null when under every threshold.
 */
export async function sharedSuspicion(
  { db, hashKey, settings }: LifecycleDeps,
  { forms, at }: { forms: readonly string[]; at: Date },
): Promise<SharedSuspicion | null> {
  const hashes = forms.map((form) => hashPurchaseCode(form, hashKey));
  const since = new Date(at.getTime() - settings.shared.window_days * DAY_MS).toISOString();
  const counts = await db
    .selectFrom("purchase_checks")
    .where("code_hash", "in", hashes)
    .where("checked_at", ">=", since)
    .select((eb) => [
      eb.fn
        .count(sql`ticket_system || ':' || ticket_id`)
        .distinct()
        .as("tickets"),
      eb.fn.count("token_id").distinct().as("tokens"),
      eb.fn.count("client_hash").distinct().as("addresses"),
    ])
    .executeTakeFirstOrThrow();
  const suspicion = {
    window_days: settings.shared.window_days,
    tickets: Number(counts.tickets),
    tokens: Number(counts.tokens),
    addresses: Number(counts.addresses),
  };
  const { tickets, tokens, addresses } = settings.shared;
  if (suspicion.tickets < tickets && suspicion.tokens < tokens && suspicion.addresses < addresses) return null;
  const newest = await db
    .selectFrom("purchase_checks")
    .select("id")
    .where("code_hash", "in", hashes)
    .orderBy("checked_at", "desc")
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
  if (newest)
    await db.updateTable("purchase_checks").set({ shared_suspected: 1 }).where("id", "=", newest.id).execute();
  const known = await knownPurchase(db, hashes);
  if (known && known.shared_flagged_at === null) {
    const flagged = await db
      .updateTable("known_purchases")
      .set({ shared_flagged_at: at.toISOString() })
      .where("code_hash", "=", known.code_hash)
      .where("shared_flagged_at", "is", null)
      .executeTakeFirst();
    if (Number(flagged.numUpdatedRows) === 1)
      await emitEvent({
        type: "purchase.shared_suspected",
        occurredAt: at,
        data: {
          code_hash: known.code_hash,
          code_last4: known.code_last4,
          item: { id: Number(known.item_id), name: known.item_name },
          ...suspicion,
        },
      });
  }
  return suspicion;
}

// ---------------------------------------------------------------------------------------------------------
// While the item service is down

/**
 * Whether a failure of the item service may be answered from the last verdict: it did not answer (a timeout, no
 * connection, its breaker open), answered with a 5xx, or with what cannot be read. A 429 is not: it asks the caller
 * to wait (Retry-After), and a refused key is the operator's to fix.
 */
export function answersFromLastVerdict(error: unknown): boolean {
  if (!isUpstreamError(error)) return false;
  if (error.kind === "http_status") return error.status === undefined || error.status >= 500;
  return ["timeout", "unreachable", "bad_response", "too_large"].includes(error.kind);
}

/** The last verdict the item service gave about the code (any of its forms); null for a code never answered. */
export async function lastVerdict(
  { db, hashKey }: Omit<LifecycleDeps, "settings">,
  forms: readonly string[],
  now: Date,
): Promise<LastVerdict | null> {
  const row = await db
    .selectFrom("purchase_checks")
    .select([
      "outcome",
      "checked_at",
      "user_email",
      "reason",
      "item_id",
      "item_name",
      "license_type",
      "supported_until",
    ])
    .where(
      "code_hash",
      "in",
      forms.map((form) => hashPurchaseCode(form, hashKey)),
    )
    .where("outcome", "in", ["valid", "invalid", "revoked"])
    .orderBy("checked_at", "desc")
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
  if (!row) return null;
  const valid = row.outcome === "valid";
  return {
    outcome: row.outcome as LastVerdict["outcome"],
    checked_at: row.checked_at,
    checked_by: row.user_email,
    reason: row.reason,
    item: row.item_id === null || row.item_name === null ? null : { id: Number(row.item_id), name: row.item_name },
    license_type: row.license_type,
    supported_until: row.supported_until,
    support: supportOf(valid, row.supported_until, now.getTime()),
  };
}

/** "3 days ago", "5 minutes ago": how old a verdict is, in the largest whole unit. */
export function ageInWords(ms: number): string {
  const units: Array<[string, number]> = [
    ["day", DAY_MS],
    ["hour", 3_600_000],
    ["minute", 60_000],
  ];
  for (const [unit, size] of units) {
    const n = Math.floor(ms / size);
    if (n >= 1) return `${n} ${unit}${n === 1 ? "" : "s"} ago`;
  }
  return "moments ago";
}

/** The last verdict in words: "Valid as of 3 days ago, checked by vera@example.com." */
export function lastVerdictSentence(verdict: LastVerdict, now: Date): string {
  const what = { valid: "Valid", invalid: "Not valid", revoked: "Revoked (valid before, then refused)" }[
    verdict.outcome
  ];
  const by = verdict.checked_by ? `checked by ${verdict.checked_by}` : "checked by Gatehouse's re-check";
  return `${what} as of ${ageInWords(now.getTime() - Date.parse(verdict.checked_at))}, ${by}. The item API did not answer now: this verdict is not fresh, and Gatehouse checks the code again when it answers.`;
}

/** Keeps the code, sealed, until the item service answers again and the re-check (./sweep.ts) settles it. */
export async function awaitRecheck(
  { db, hashKey }: Omit<LifecycleDeps, "settings">,
  code: string,
  at: Date,
): Promise<void> {
  try {
    await db
      .insertInto("purchase_rechecks")
      .values({
        code_hash: hashPurchaseCode(code, hashKey),
        code_sealed: lifecycleCodeSealer.seal(code, hashKey),
        asked_at: at.toISOString(),
      })
      .onConflict((conflict) => conflict.column("code_hash").doNothing())
      .execute();
  } catch (error) {
    // The answer stands; only the automatic re-check is lost, and the next check of the code asks again.
    logEvent("error", "purchase_recheck_not_kept", { error: describeError(error) });
  }
}
