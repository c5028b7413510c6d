// Checking one purchase code, the one way both callers do it: the single check (POST /api/purchases/validate)
// cleans the code, reads what the history knew of it, asks the item service and records the answer; the bulk
// runner, whose codes were cleaned when the job was made, asks with the same function (askItemService), adds its
// own waits and retries around it, and records the answer with the code's result in one transaction
// (bulk/results.ts recordBulkCheck, the same history row).
import "server-only";

import { hashPurchaseCode } from "@/lib/auth/audit";
import { purchaseCodeLast4 } from "@/lib/contract/purchase-code";
import type { HelpdeskTicket, Purchase, PurchaseCheck } from "@/lib/contract/purchases";
import { NO_LIFECYCLE } from "@/lib/contract/purchase-lifecycle";
import type { PurchaseCodeFormat } from "@/lib/contract/values";
import type { Db } from "@/lib/db";
import { describeError, logEvent } from "@/lib/log";
import type { ItemsClient } from "@/lib/upstream";

import { PurchaseCodeRefused } from "./errors";
import {
  purchaseHistorySummary,
  recordPurchaseCheck,
  type CheckOrigin,
  type PurchaseCheckRecordInput,
} from "./history";
import {
  answersFromLastVerdict,
  awaitRecheck,
  lastVerdict,
  lastVerdictSentence,
  lifecycleSettings,
  settleAnswer,
  sharedSuspicion,
} from "./lifecycle";
import { normalisePurchaseCode, purchaseCodeForms } from "./normalise";
import { slipFor } from "./slips";

/** What the item service said of a code: a purchase, or why it is not one. Its failures are thrown (UpstreamError). */
export type ItemServiceAnswer = { status: "valid"; purchase: Purchase } | { status: "invalid"; reason: string };

/** Asks the item service about one cleaned code; `shared`: an answer from the area's cache will do (a helpdesk's). */
export async function askItemService(
  items: ItemsClient,
  code: string,
  options?: { shared?: boolean },
): Promise<ItemServiceAnswer> {
  const answer = await items.validatePurchase(code, options);
  return answer.valid ? { status: "valid", purchase: answer.purchase } : { status: "invalid", reason: answer.message };
}

/**
 * Records a check in the history. The check has happened (the upstream answered, or failed): a history write that
 * fails must not change the answer. It is logged at error level with what the row would have held (the code only
 * as hash and last 4) and `context` (the request or the bulk job), so it can be restored.
 */
export async function recordCheck(
  db: Db,
  hashKey: string,
  check: PurchaseCheckRecordInput,
  context: Record<string, unknown> = {},
): Promise<void> {
  const input = { ...check, at: check.at ?? new Date() };
  try {
    await recordPurchaseCheck(db, hashKey, input);
  } catch (error) {
    const { code, purchase, at, ...rest } = input;
    logEvent("error", "purchase_history_write_failed", {
      ...context,
      check: {
        ...rest,
        checked_at: at.toISOString(),
        code_hash: hashPurchaseCode(code, hashKey),
        code_last4: purchaseCodeLast4(code),
        item_id: purchase?.item.id ?? null,
        item_name: purchase?.item.name ?? null,
        license_type: purchase?.license_type ?? null,
        supported_until: purchase?.supported_until ?? null,
      },
      error: describeError(error),
    });
  }
}

export interface SingleCheck {
  /** The code as the person sent it. */
  rawCode: string;
  user: { id: string; email: string };
  requestId: string;
  /** The reason a failed check is kept with, in the words its answer gives the person (never a URL or a key). */
  failureReason: (error: unknown) => string;
  /** The helpdesk ticket the check is made for (the checker opened from a helpdesk's card), kept with it. */
  ticket?: HelpdeskTicket | null;
  /** The token and the client's address the check came from: the "possibly shared" flag counts them. */
  origin?: CheckOrigin;
}

/**
 * One code, checked at a person's request, read by PURCHASE_CODE_FORMAT. A code the normaliser refuses throws
 * PurchaseCodeRefused (no call, no history row). The answer is settled through ./lifecycle.ts (revoked, support
 * ending, possibly shared). A failure of the item service is recorded as failed; a code checked before is then
 * answered with its last verdict (stale) and re-checked later, and one never checked throws the failure on.
 */
export async function checkPurchaseCode(
  { db, hashKey, items, format }: { db: Db; hashKey: string; items: ItemsClient; format: PurchaseCodeFormat },
  { rawCode, user, requestId, failureReason, ticket, origin }: SingleCheck,
): Promise<PurchaseCheck> {
  const cleaned = normalisePurchaseCode(rawCode, format);
  // A code with a look-alike or control character would only come back "invalid" with no hint why: say why
  // instead, without asking the upstream or recording a check.
  // A code one slip from a purchase code's shape (spaces for hyphens; under uuid, an O for a 0) gets the mend too.
  if (!cleaned.ok) throw new PurchaseCodeRefused("purchase_code", cleaned.reason, slipFor(rawCode, format));
  const { code, notes } = cleaned;
  const forms = purchaseCodeForms(cleaned, format);
  // Read before the check is recorded: "checked N times before" does not count this one.
  const [history, settings] = await Promise.all([purchaseHistorySummary(db, hashKey, forms), lifecycleSettings(db)]);
  const lifecycle = { db, hashKey, settings };
  const check = {
    user,
    code,
    source: "single",
    requestId,
    ticket: ticket ? { system: ticket.system, id: ticket.id, url: ticket.url ?? null } : null,
    origin,
  } as const;
  const context = { request_id: requestId };

  let answer: ItemServiceAnswer;
  try {
    answer = await askItemService(items, code);
  } catch (error) {
    const at = new Date();
    const failure = failureReason(error);
    await recordCheck(db, hashKey, { ...check, at, outcome: "failed", reason: failure }, context);
    const last = answersFromLastVerdict(error) ? await lastVerdict(lifecycle, forms, at) : null;
    if (!last) throw error;
    await awaitRecheck(lifecycle, code, at);
    return {
      stale: true,
      valid: last.outcome === "valid",
      message: lastVerdictSentence(last, at),
      failure,
      last_verdict: last,
      checked_code: code,
      notes,
      history,
      lifecycle: { ...NO_LIFECYCLE, revoked: last.outcome === "revoked" },
    };
  }
  const at = new Date();
  const settled = await settleAnswer(lifecycle, { code, forms, answer, at });
  await recordCheck(
    db,
    hashKey,
    answer.status === "valid"
      ? { ...check, at, outcome: "valid", reason: null, purchase: answer.purchase }
      : {
          ...check,
          at,
          outcome: settled.outcome,
          reason: settled.reason,
          previous: settled.lifecycle.previously_valid,
        },
    context,
  );
  const shared = await sharedSuspicion(lifecycle, { forms, at });
  const validation =
    answer.status === "valid"
      ? { valid: true as const, purchase: answer.purchase }
      : { valid: false as const, message: settled.reason ?? answer.reason };
  // Under auto an almost-code is sent (the upstream's codes may not be UUIDs); answered invalid, its slip is named.
  const suggestion = settled.outcome === "invalid" ? slipFor(code, format) : null;
  return {
    ...validation,
    stale: false,
    checked_code: code,
    notes,
    history,
    suggestion,
    lifecycle: { ...settled.lifecycle, shared_suspected: shared },
  };
}
