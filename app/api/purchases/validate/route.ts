import { ApiError, fromUpstreamError } from "@/lib/api/errors";
import { operations } from "@/lib/api/operations";
import { defineRoute, methodsNotAllowed, ok } from "@/lib/api/route";
import type { PurchaseValidation } from "@/lib/contract/purchases";
import type { Accounts } from "@/lib/auth/access";
import { hashPurchaseCode } from "@/lib/auth/audit";
import { describeError, logEvent } from "@/lib/log";
import { purchaseCodeLast4 } from "@/lib/contract/purchase-code";
import { purchaseHistorySummary, recordPurchaseCheck, type PurchaseCheckRecordInput } from "@/lib/purchases/history";
import { normalisePurchaseCode } from "@/lib/purchases/normalise";
import { isUpstreamError } from "@/lib/upstream";

export const POST = defineRoute(operations.validatePurchase, async ({ client, body, accounts, user, requestId }) => {
  const cleaned = normalisePurchaseCode(body.purchase_code);
  // A code with a look-alike or control character would only come back "invalid" with no hint why: say why
  // instead, without asking the upstream or recording a check.
  if (!cleaned.ok) {
    throw new ApiError("invalid_input", "Invalid field: purchase_code. See fields for details.", { fields: { purchase_code: cleaned.reason } });
  }
  const { code, notes } = cleaned;
  const hashKey = accounts.config.purchaseCodeHashKey;
  // Read before the check is recorded: "checked N times before" does not count this one.
  const history = await purchaseHistorySummary(accounts.db, hashKey, code);
  const check = { user: { id: user.id, email: user.email }, code, source: "single", requestId } as const;

  let validation: PurchaseValidation;
  try {
    validation = await client.validatePurchase(code);
  } catch (error) {
    await recordCheck(accounts, { ...check, outcome: "failed", reason: failureReason(error) });
    throw error;
  }
  await recordCheck(
    accounts,
    validation.valid
      ? { ...check, outcome: "valid", reason: null, purchase: validation.purchase }
      : { ...check, outcome: "invalid", reason: validation.message },
  );
  return ok({ ...validation, checked_code: code, notes, history });
});

/** Why a check failed, in the words its answer gives the person (never a URL or a key). */
function failureReason(error: unknown): string {
  if (isUpstreamError(error)) return fromUpstreamError(error, "The item API does not know this purchase.").message;
  return "Gatehouse could not finish the check because of an internal error.";
}

/**
 * The check has happened (the upstream answered, or failed): a history write that fails must not change the
 * answer. It is logged at error level with what the row would have held (the code only as hash and last 4).
 */
async function recordCheck(accounts: Accounts, check: PurchaseCheckRecordInput): Promise<void> {
  const input = { ...check, at: check.at ?? new Date() };
  try {
    await recordPurchaseCheck(accounts.db, accounts.config.purchaseCodeHashKey, input);
  } catch (error) {
    const { code, purchase, at, ...rest } = input;
    logEvent("error", "purchase_history_write_failed", {
      request_id: input.requestId ?? null,
      check: {
        ...rest,
        checked_at: at.toISOString(),
        code_hash: hashPurchaseCode(code, accounts.config.purchaseCodeHashKey),
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

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["POST"]);
