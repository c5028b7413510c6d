// A helpdesk ticket's purchase check: every code in the ticket's text found (codes as they are, almost-codes with
// their slip), each distinct code checked once — at most HELPDESK_MAX_CODES — and kept in the history with the
// ticket. The answer names codes by their last 4 characters only: it goes to a helpdesk, whose servers, logs and
// agents' browsers are not Gatehouse's.
//
// The item service is asked through the area's cache (`shared`): the sidebar asks again each time an agent opens
// the ticket, and an answer as old as the cache's lifetime is as good there. The checker's own checks never are.
// For the same reason a ticket opened again within 15 minutes with the same verdict adds no history row.
import "server-only";

import type { HelpdeskLookup, HelpdeskTicket, HelpdeskVerdict } from "@/lib/contract/helpdesk";
import { purchaseCodeLast4, supportOf } from "@/lib/contract/purchase-code";
import { NO_LIFECYCLE } from "@/lib/contract/purchase-lifecycle";
import { HELPDESK_MAX_CODES, type PurchaseCodeFormat } from "@/lib/contract/values";
import type { Db } from "@/lib/db";
import type { ItemsClient } from "@/lib/upstream";

import { askItemService, recordCheck, type ItemServiceAnswer } from "./check";
import { findTicketCodes, type TicketCode } from "./find-codes";
import { keptForTicketSince, purchaseHistorySummary, type CheckOrigin, type PurchaseCheckRecordInput } from "./history";
import {
  answersFromLastVerdict,
  awaitRecheck,
  lastVerdict,
  lastVerdictSentence,
  lifecycleSettings,
  settleAnswer,
  sharedSuspicion,
} from "./lifecycle";
import { purchaseCodeForms } from "./normalise";
import { slipFor } from "./slips";

/** The item service is asked about this many codes of one ticket at once. */
const CONCURRENT_CHECKS = 3;
/**
 * A sidebar checks a ticket each time an agent opens it: within this window, a code kept with the same ticket and
 * the same outcome is not kept again, so the history and "checked N times before" count checks, not page views.
 */
const REPEAT_WINDOW_MS = 15 * 60_000;

export interface TicketLookupDeps {
  db: Db;
  hashKey: string;
  items: ItemsClient;
  format: PurchaseCodeFormat;
}

export interface TicketLookup {
  text: string;
  ticket: HelpdeskTicket;
  /** Who asks: a token's owner, or the helpdesk itself (Help Scout's signed request: no Gatehouse user). */
  user: { id: string | null; email: string | null };
  requestId: string;
  /** Why a check failed, in the words the answer gives (never a URL or a key). */
  failureReason: (error: unknown) => string;
  /** The token and the client's address the lookup came from: the "possibly shared" flag counts them. */
  origin?: CheckOrigin;
}

/** What a ticket holds, before anything is asked: the codes to check, and how many more were found. */
export interface TicketCodes {
  codes: TicketCode[];
  /** The number of codes the item service will be asked about (an almost-code without a mend is not). */
  toCheck: number;
  notChecked: number;
}

/** The codes of a ticket's text, cut to HELPDESK_MAX_CODES; under PURCHASE_CODE_FORMAT=exact only codes as they are. */
export function ticketCodes(text: string, format: PurchaseCodeFormat): TicketCodes {
  const found = findTicketCodes(text).filter((code) => code.kind === "code" || slipFor(code.text, format) !== null);
  const codes = found.slice(0, HELPDESK_MAX_CODES);
  return {
    codes,
    toCheck: codes.filter((code) => code.kind === "code" || code.slip.code !== null).length,
    notChecked: found.length - codes.length,
  };
}

/** Checks the codes `ticketCodes` found (the caller has counted them against the limits) and answers each. */
export async function lookUpTicket(
  deps: TicketLookupDeps,
  lookup: TicketLookup,
  found: TicketCodes,
): Promise<HelpdeskLookup> {
  const verdicts: HelpdeskVerdict[] = new Array(found.codes.length);
  let next = 0;
  const worker = async () => {
    while (next < found.codes.length) {
      const index = next++;
      verdicts[index] = await verdictOf(deps, lookup, found.codes[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENT_CHECKS, found.codes.length) }, worker));
  return {
    ticket: { system: lookup.ticket.system, id: lookup.ticket.id, url: lookup.ticket.url ?? null },
    codes: verdicts,
    not_checked: found.notChecked,
  };
}

async function verdictOf(deps: TicketLookupDeps, lookup: TicketLookup, found: TicketCode): Promise<HelpdeskVerdict> {
  const almost = found.kind === "almost" ? { slip: found.slip.slip, corrected: found.slip.code !== null } : null;
  const code = found.kind === "code" ? found.code : found.slip.code;
  if (code === null) {
    // A character missing, or which one too many cannot be told: named, not guessed, and not asked.
    return {
      code_last4: purchaseCodeLast4(found.kind === "almost" ? found.text : ""),
      outcome: "not_checked",
      valid: false,
      purchase: null,
      support: null,
      // The slip is in `almost`: the message says what to do.
      message: "It cannot be corrected with certainty: ask the buyer for the whole code again.",
      almost,
      history: { previous_checks: 0, first_checked_at: null, first_checked_by: null },
      checked_at: null,
      lifecycle: NO_LIFECYCLE,
      last_verdict: null,
    };
  }
  const forms = purchaseCodeForms({ code }, deps.format);
  const [history, settings] = await Promise.all([
    purchaseHistorySummary(deps.db, deps.hashKey, forms),
    lifecycleSettings(deps.db),
  ]);
  const lifecycle = { db: deps.db, hashKey: deps.hashKey, settings };
  const check = {
    user: lookup.user,
    code,
    source: "helpdesk",
    requestId: lookup.requestId,
    ticket: { system: lookup.ticket.system, id: lookup.ticket.id, url: lookup.ticket.url ?? null },
    origin: lookup.origin,
  } as const;
  const context = { request_id: lookup.requestId };
  const base = { code_last4: purchaseCodeLast4(code), almost, history };
  /** Keeps the check, unless the ticket was opened again soon after with the same verdict for this code. */
  const keep = async (record: PurchaseCheckRecordInput & { at: Date }) => {
    const since = new Date(record.at.getTime() - REPEAT_WINDOW_MS);
    if (await keptForTicketSince(deps.db, deps.hashKey, { ...record, ticket: check.ticket }, since)) return;
    await recordCheck(deps.db, deps.hashKey, record, context);
  };
  let answer: ItemServiceAnswer;
  try {
    answer = await askItemService(deps.items, code, { shared: true });
  } catch (error) {
    const reason = lookup.failureReason(error);
    const at = new Date();
    await keep({ ...check, at, outcome: "failed", reason });
    // A code checked before: its last verdict, marked as not fresh, and a re-check when the item service is back.
    const last = answersFromLastVerdict(error) ? await lastVerdict(lifecycle, forms, at) : null;
    if (last) await awaitRecheck(lifecycle, code, at);
    return {
      ...base,
      outcome: "failed",
      valid: false,
      purchase: null,
      support: null,
      message: last ? lastVerdictSentence(last, at) : reason,
      checked_at: at.toISOString(),
      lifecycle: { ...NO_LIFECYCLE, revoked: last?.outcome === "revoked" },
      last_verdict: last,
    };
  }
  const at = new Date();
  const settled = await settleAnswer(lifecycle, { code, forms, answer, at });
  if (answer.status === "invalid") {
    await keep({
      ...check,
      at,
      outcome: settled.outcome,
      reason: settled.reason,
      previous: settled.lifecycle.previously_valid,
    });
    return {
      ...base,
      outcome: settled.outcome,
      valid: false,
      purchase: null,
      support: null,
      message: settled.reason,
      checked_at: at.toISOString(),
      lifecycle: { ...settled.lifecycle, shared_suspected: await sharedSuspicion(lifecycle, { forms, at }) },
      last_verdict: null,
    };
  }
  await keep({ ...check, at, outcome: "valid", reason: null, purchase: answer.purchase });
  const { purchase_code: _code, ...purchase } = answer.purchase;
  return {
    ...base,
    outcome: "valid",
    valid: true,
    purchase,
    support: supportOf(true, purchase.supported_until ?? null, at.getTime()),
    message: null,
    checked_at: at.toISOString(),
    lifecycle: { ...settled.lifecycle, shared_suspected: await sharedSuspicion(lifecycle, { forms, at }) },
    last_verdict: null,
  };
}
