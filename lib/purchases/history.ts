// The purchase history: one row per check, single or bulk. A code is kept only as its keyed hash (the same
// HMAC as the audit log, of the CLEANED code) and its last 4 characters, so a full code typed into the search
// finds its checks without the store ever holding it.
import "server-only";

import { createHmac } from "node:crypto";

import type { ExpressionBuilder } from "kysely";

import { hashPurchaseCode } from "@/lib/auth/audit";
import { normalizeEmail } from "@/lib/contract/accounts";
import { timeBound } from "@/lib/contract/common";
import type { PreviousPurchase } from "@/lib/contract/purchase-lifecycle";
import { isoInZone } from "@/lib/contract/time-zone";
import { purchaseCodeLast4, supportOf } from "@/lib/contract/purchase-code";
import type {
  Purchase,
  PurchaseHistoryEntry,
  PurchaseHistoryQuery,
  PurchaseHistorySummary,
} from "@/lib/contract/purchases";
import {
  ticketFilter,
  ticketOfFilter,
  type HelpdeskSystem,
  type PurchaseCheckSource,
  type PurchaseCodeFormat,
  type PurchaseOutcome,
} from "@/lib/contract/values";
import type { Db } from "@/lib/db";
import type { Database, PurchaseCheckRow } from "@/lib/db/schema";
import { redactSecrets } from "@/lib/log";
import { sealer } from "@/lib/seal";

import { CSV_BOM, csvLine } from "@/lib/csv";
import { pagedStream } from "@/lib/db/paged-stream";
import { PURCHASED_ITEM_COLUMNS } from "./csv";
import { PurchaseCodeRefused } from "./errors";
import { normalisePurchaseCode, purchaseCodeForms } from "./normalise";

export interface PurchaseCheckRecordInput {
  /** When the check was answered; now when absent. */
  at?: Date;
  /** Who checked, as he is now (the row keeps it as it was). */
  user: { id: string | null; email: string | null };
  /** The CLEANED code (normalisePurchaseCode's `code`): hashed, and its last 4 characters kept; never stored whole. */
  code: string;
  outcome: PurchaseOutcome;
  /** invalid: the upstream's message; failed: what went wrong, for a person (no URL, no key). */
  reason: string | null;
  /** When valid: its item id and name, licence type and support end are kept. */
  purchase?: Purchase | null;
  /** When revoked: what was bought then, kept the same way. */
  previous?: PreviousPurchase | null;
  source: PurchaseCheckSource;
  bulkJobId?: string | null;
  requestId?: string | null;
  /** The helpdesk ticket the check was made for. */
  ticket?: { system: HelpdeskSystem; id: string; url: string | null } | null;
  /** The API token that asked, and the client's address (kept only as a keyed fingerprint): the "possibly shared" flag counts them. */
  origin?: CheckOrigin;
}

/** Who asked for a check, as far as the "possibly shared" flag counts places. */
export interface CheckOrigin {
  tokenId?: string | null;
  clientAddress?: string | null;
}

/** Keys the fingerprint of a client's address: the history tells addresses apart without keeping any. */
const addressFingerprint = sealer("gatehouse client address fingerprint");

/** The keyed fingerprint of a client's address kept with a check; null when Gatehouse does not know it. */
function clientFingerprint(address: string | null | undefined, hashKey: string): string | null {
  if (!address) return null;
  return createHmac("sha256", addressFingerprint.key(hashKey)).update(address).digest("hex");
}

export async function recordPurchaseCheck(db: Db, hashKey: string, input: PurchaseCheckRecordInput): Promise<void> {
  if (input.code === "") throw new RangeError("recordPurchaseCheck: the code is empty");
  const purchase = input.outcome === "valid" ? (input.purchase ?? null) : null;
  // A revoked code is kept with what was bought then, so the history and the per-item counts name its item.
  const previous = input.outcome === "revoked" ? (input.previous ?? null) : null;
  await db
    .insertInto("purchase_checks")
    .values({
      checked_at: (input.at ?? new Date()).toISOString(),
      user_id: input.user.id,
      user_email: input.user.email === null ? null : normalizeEmail(input.user.email),
      code_hash: hashPurchaseCode(input.code, hashKey),
      code_last4: purchaseCodeLast4(input.code),
      outcome: input.outcome,
      // The upstream's words may echo a key: stored without it, like every log line.
      reason: input.reason === null ? null : redactSecrets(input.reason),
      item_id: purchase?.item.id ?? previous?.item.id ?? null,
      item_name: purchase?.item.name ?? previous?.item.name ?? null,
      license_type: purchase?.license_type ?? previous?.license_type ?? null,
      supported_until: purchase?.supported_until ?? previous?.supported_until ?? null,
      source: input.source,
      bulk_job_id: input.bulkJobId ?? null,
      request_id: input.requestId ?? null,
      ticket_system: input.ticket?.system ?? null,
      ticket_id: input.ticket?.id ?? null,
      ticket_url: input.ticket?.url ?? null,
      token_id: input.origin?.tokenId ?? null,
      client_hash: clientFingerprint(input.origin?.clientAddress, hashKey),
    })
    .execute();
}

/**
 * What the history knew of a code before the check being made: ask before recording it. `forms` are the forms
 * the code may have been checked in (purchaseCodeForms: its canonical form first).
 */
export async function purchaseHistorySummary(
  db: Db,
  hashKey: string,
  forms: readonly string[],
): Promise<PurchaseHistorySummary> {
  const hash = forms.map((form) => hashPurchaseCode(form, hashKey));
  const [count, first] = await Promise.all([
    db
      .selectFrom("purchase_checks")
      .where("code_hash", "in", hash)
      .select((eb) => eb.fn.countAll().as("total"))
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("purchase_checks")
      .where("code_hash", "in", hash)
      .select(["checked_at", "user_email"])
      .orderBy("checked_at", "asc")
      .orderBy("id", "asc")
      .limit(1)
      .executeTakeFirst(),
  ]);
  return {
    // PostgreSQL returns count(*) as a BIGINT string.
    previous_checks: Number(count.total),
    first_checked_at: first?.checked_at ?? null,
    first_checked_by: first?.user_email ?? null,
  };
}

/**
 * The history's filters: the query of GET /api/purchases/history without its page, plus a full `code` (which
 * only the body of POST /api/purchases/history/search carries).
 */
export type PurchaseHistoryFilters = Omit<PurchaseHistoryQuery, "page" | "per_page" | "code"> & {
  code?: string;
  /** How `code` is read (PURCHASE_CODE_FORMAT); auto when absent. */
  codeFormat?: PurchaseCodeFormat;
};

interface ResolvedFilters {
  outcome?: PurchaseOutcome;
  itemId?: number;
  user?: string;
  from?: string;
  to?: string;
  codeHashes?: string[];
  ticket?: { system: string; id: string };
}

/**
 * The filters as the store applies them. A `code` is cleaned like a check and looked up by its hash; a code the
 * normaliser refuses could never have been checked, so it is the client's mistake: 400 with the reason in
 * fields.code.
 */
function resolveFilters(hashKey: string, filters: PurchaseHistoryFilters): ResolvedFilters {
  const resolved: ResolvedFilters = {};
  if (filters.outcome !== undefined) resolved.outcome = filters.outcome;
  if (filters.item_id !== undefined) resolved.itemId = filters.item_id;
  if (filters.user !== undefined && filters.user.trim() !== "") resolved.user = filters.user.trim();
  // The contract checked its form; a value that is not one (a caller past the schema) matches no row.
  if (filters.ticket !== undefined) resolved.ticket = ticketOfFilter(filters.ticket) ?? { system: "", id: "" };
  if (filters.from !== undefined) resolved.from = timeBound(filters.from, "start", filters.time_zone).toISOString();
  if (filters.to !== undefined) resolved.to = timeBound(filters.to, "end", filters.time_zone).toISOString();
  if (filters.code !== undefined) {
    const cleaned = normalisePurchaseCode(filters.code, filters.codeFormat);
    if (!cleaned.ok) {
      throw new PurchaseCodeRefused("code", cleaned.reason);
    }
    // Every form the code may have been checked in: the history hashed codes as they were sent.
    resolved.codeHashes = purchaseCodeForms(cleaned, filters.codeFormat).map((form) => hashPurchaseCode(form, hashKey));
  }
  return resolved;
}

function matching(f: ResolvedFilters) {
  return (eb: ExpressionBuilder<Database, "purchase_checks">) => {
    const conditions = [];
    if (f.outcome !== undefined) conditions.push(eb("outcome", "=", f.outcome));
    if (f.itemId !== undefined) conditions.push(eb("item_id", "=", f.itemId));
    if (f.user !== undefined)
      conditions.push(eb.or([eb("user_id", "=", f.user), eb("user_email", "=", normalizeEmail(f.user))]));
    if (f.from !== undefined) conditions.push(eb("checked_at", ">=", f.from));
    if (f.to !== undefined) conditions.push(eb("checked_at", "<=", f.to));
    if (f.codeHashes !== undefined) conditions.push(eb("code_hash", "in", f.codeHashes));
    if (f.ticket !== undefined)
      conditions.push(eb("ticket_system", "=", f.ticket.system), eb("ticket_id", "=", f.ticket.id));
    return eb.and(conditions);
  };
}

function toEntry(row: PurchaseCheckRow): PurchaseHistoryEntry {
  return {
    id: Number(row.id),
    checked_at: row.checked_at,
    code_last4: row.code_last4,
    outcome: row.outcome as PurchaseOutcome,
    reason: row.reason,
    item_id: row.item_id === null ? null : Number(row.item_id),
    item_name: row.item_name,
    license_type: row.license_type,
    supported_until: row.supported_until,
    // As it was when checked: a purchase whose support had ended is real, and is shown so, not as invalid.
    support: supportOf(row.outcome === "valid", row.supported_until, Date.parse(row.checked_at)),
    checked_by: { id: row.user_id, email: row.user_email },
    source: row.source as PurchaseCheckSource,
    bulk_job_id: row.bulk_job_id,
    ticket:
      row.ticket_system === null || row.ticket_id === null
        ? null
        : { system: row.ticket_system as HelpdeskSystem, id: row.ticket_id, url: row.ticket_url },
    shared_suspected: Number(row.shared_suspected) === 1,
  };
}

/** Newest first (checked_at, then id). `total` counts every row matching the filters, for pagination. */
export async function listPurchaseHistory(
  db: Db,
  hashKey: string,
  query: PurchaseHistoryFilters & { page: number; perPage: number },
): Promise<{ rows: PurchaseHistoryEntry[]; total: number }> {
  const where = matching(resolveFilters(hashKey, query));
  const [rows, count] = await Promise.all([
    db
      .selectFrom("purchase_checks")
      .where(where)
      .selectAll()
      .orderBy("checked_at", "desc")
      .orderBy("id", "desc")
      .limit(query.perPage)
      .offset((query.page - 1) * query.perPage)
      .execute(),
    db
      .selectFrom("purchase_checks")
      .where(where)
      .select((eb) => eb.fn.countAll().as("total"))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows: rows.map(toEntry), total: Number(count.total) };
}

/** A helpdesk's last `limit` lookups (checks with source helpdesk from its tickets), newest first: Admin → Helpdesk. */
/**
 * Whether this code was kept with this ticket and this outcome at or after `since`: a ticket opened again soon after
 * (a sidebar checks each time) is not a new check for the history, nor for "checked N times before".
 */
export async function keptForTicketSince(
  db: Db,
  hashKey: string,
  check: { code: string; ticket: { system: string; id: string }; outcome: PurchaseOutcome },
  since: Date,
): Promise<boolean> {
  const row = await db
    .selectFrom("purchase_checks")
    .select("id")
    .where("ticket_system", "=", check.ticket.system)
    .where("ticket_id", "=", check.ticket.id)
    .where("checked_at", ">=", since.toISOString())
    .where("code_hash", "=", hashPurchaseCode(check.code, hashKey))
    .where("outcome", "=", check.outcome)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export async function lastHelpdeskChecks(
  db: Db,
  system: HelpdeskSystem,
  limit: number,
): Promise<PurchaseHistoryEntry[]> {
  const rows = await db
    .selectFrom("purchase_checks")
    .where("source", "=", "helpdesk")
    .where("ticket_system", "=", system)
    .selectAll()
    .orderBy("checked_at", "desc")
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
  return rows.map(toEntry);
}

/** How many of the checks were valid codes whose support had ended when they were checked. */
export function supportExpiredCount(eb: ExpressionBuilder<Database, "purchase_checks">) {
  return eb.fn.sum<number>(
    eb
      .case()
      .when(eb.and([eb("outcome", "=", "valid"), eb("supported_until", "<=", eb.ref("checked_at"))]))
      .then(1)
      .else(0)
      .end(),
  );
}

/** The most rows one CSV export holds; past it, a last line says the file stops there and how to get the rest. */
export const PURCHASE_HISTORY_CSV_MAX_ROWS = 100_000;
/** Rows read from the store at a time while the CSV streams: memory stays bounded whatever the export's size. */
const CSV_PAGE_ROWS = 1000;

export const PURCHASE_HISTORY_CSV_COLUMNS = [
  "id",
  "checked_at",
  "code_last4",
  "outcome",
  "reason",
  ...PURCHASED_ITEM_COLUMNS,
  "checked_by_id",
  "checked_by_email",
  "source",
  "bulk_job_id",
  "ticket",
  "ticket_url",
  "shared_suspected",
] as const;

/** A row of the CSV: its time with the offset of the zone asked for (the one a bare from/to date is read in). */
function csvRow(entry: PurchaseHistoryEntry, zone: string | undefined): string {
  return csvLine([
    entry.id,
    zone === undefined ? entry.checked_at : isoInZone(new Date(entry.checked_at), zone),
    entry.code_last4,
    entry.outcome,
    entry.reason,
    entry.item_id,
    entry.item_name,
    entry.license_type,
    entry.supported_until,
    entry.support,
    entry.checked_by.id,
    entry.checked_by.email,
    entry.source,
    entry.bulk_job_id,
    entry.ticket === null ? null : ticketFilter(entry.ticket),
    entry.ticket?.url ?? null,
    entry.shared_suspected ? "yes" : "no",
  ]);
}

/**
 * The checks the filters select, newest first, as CSV (BOM, header row, CRLF); with a `time_zone`, checked_at
 * carries that zone's offset ("2026-11-27T17:12:05.000-08:00"). Filters are checked now, so a
 * refused `code` throws before any byte is sent; rows are then read page by page as the client reads, walking
 * down (checked_at, id) so that checks recorded meanwhile neither repeat nor shift rows. At most
 * PURCHASE_HISTORY_CSV_MAX_ROWS rows; a longer export ends with a line saying so.
 */
export function purchaseHistoryCsv(
  db: Db,
  hashKey: string,
  query: PurchaseHistoryFilters,
  options: { maxRows?: number; pageRows?: number } = {},
): ReadableStream<Uint8Array> {
  const where = matching(resolveFilters(hashKey, query));
  const maxRows = options.maxRows ?? PURCHASE_HISTORY_CSV_MAX_ROWS;
  return pagedStream<PurchaseCheckRow>({
    head: CSV_BOM + csvLine(PURCHASE_HISTORY_CSV_COLUMNS),
    pageRows: options.pageRows ?? CSV_PAGE_ROWS,
    cap: {
      maxRows,
      tooMany: csvLine([
        `This export stops at ${maxRows} checks, the newest; narrow the filters (for example from and to) to export the rest.`,
      ]),
    },
    failureEvent: "purchase_history_export_failed",
    page: async (last, limit) => {
      let next = db.selectFrom("purchase_checks").where(where);
      if (last !== null) {
        const { checked_at: checkedAt, id } = last;
        next = next.where((eb) =>
          eb.or([eb("checked_at", "<", checkedAt), eb.and([eb("checked_at", "=", checkedAt), eb("id", "<", id)])]),
        );
      }
      return next.selectAll().orderBy("checked_at", "desc").orderBy("id", "desc").limit(limit).execute();
    },
    encode: (rows) => rows.map((row) => csvRow(toEntry(row), query.time_zone)).join(""),
  });
}
