// The public licence API (issue 34): an installed copy activates, validates and deactivates itself with the buyer's
// purchase code. One flow for the three: the item's policy (off until an admin turns it on), the request limits,
// the purchase's verdict (the item API through the shared cache, within this API's budget; beyond it, or while the
// item API is down, the last verdict, marked; without one, "try later"), then the activation. Each outcome is a
// value the route turns into its (signed) answer; events say what changed.
import "server-only";

import { hashPurchaseCode } from "@/lib/auth/audit";
import { purchaseCodeLast4 } from "@/lib/contract/purchase-code";
import type { LicenceAnswer, LicencePolicy, LicenceRequest } from "@/lib/contract/licences";
import type { PurchaseCodeFormat } from "@/lib/contract/values";
import type { LicenceLimits } from "@/lib/config/purchases";
import type { Db } from "@/lib/db";
import type { KnownPurchasesTable } from "@/lib/db/schema";
import { emitEvent } from "@/lib/events";
import { recordCheck } from "@/lib/purchases/check";
import { answersFromLastVerdict, knownPurchase, lifecycleSettings, settleAnswer } from "@/lib/purchases/lifecycle";
import { normalisePurchaseCode, purchaseCodeForms } from "@/lib/purchases/normalise";
import { isUpstreamError, type ItemsClient } from "@/lib/upstream";

import {
  activate,
  activationsUsed,
  deactivateInstance,
  instanceActivation,
  activationOf,
  noteSeen,
  publicActivation,
  resetCode,
  type Deactivation,
} from "./activations";
import { neverCounted, readInstance, type Instance } from "./instances";
import { isLicenceBudgetSpent, LicenceBudgetSpent, licenceBudget, takeLicenceRequest } from "./limits";
import { activationsAllowed, licencePolicy } from "./policies";

export interface LicenceDeps {
  db: Db;
  hashKey: string;
  items: ItemsClient;
  format: PurchaseCodeFormat;
  limits: LicenceLimits;
  itemsCallsPerMinute: number;
  /** How long a verdict stands without asking the item API again: the item area's cache lifetime. */
  verdictTtlMs: number;
}

export interface LicenceCall {
  body: LicenceRequest;
  clientAddress: string | null;
  requestId: string;
}

/** What the route answers: a licence (200), or a refusal with its status's reason. */
export type LicenceOutcome =
  | { kind: "answer"; answer: LicenceAnswer }
  | { kind: "invalid"; field: string; reason: string }
  | { kind: "not_found"; message: string }
  | { kind: "limit_reached"; message: string }
  | { kind: "rate_limited"; message: string; retryAfterSeconds: number }
  | { kind: "unavailable"; message: string; retryAfterSeconds: number };

/** The purchase as this API answers about it: from the item API now, or from what Gatehouse knew of it. */
interface PurchaseFacts {
  status: "active" | "revoked";
  itemId: number;
  itemName: string;
  licenceType: string;
  supportedUntil: string | null;
  fresh: boolean;
  asOf: string;
}

type Verdict =
  | { kind: "purchase"; facts: PurchaseFacts }
  | { kind: "not_purchase" }
  | { kind: "unavailable"; retryAfterSeconds: number };

/** How long a copy is asked to wait when the item API cannot be asked and no verdict is known. */
const UNAVAILABLE_RETRY_SECONDS = 60;

interface Prepared {
  code: string;
  codeHash: string;
  codeLast4: string;
  forms: string[];
  instance: Instance;
  policy: LicencePolicy;
}

/** Reads the request, the item's policy and the limits: what every operation does first. */
async function prepare(deps: LicenceDeps, call: LicenceCall): Promise<Prepared | LicenceOutcome> {
  const { body } = call;
  const cleaned = normalisePurchaseCode(body.purchase_code, deps.format);
  if (!cleaned.ok) return { kind: "invalid", field: "purchase_code", reason: cleaned.reason };
  const read = readInstance(body.instance);
  if (!read.ok) {
    return {
      kind: "invalid",
      field: body.instance.domain !== undefined ? "instance.domain" : "instance.id",
      reason: read.reason,
    };
  }
  const policy = await licencePolicy(deps.db, body.item_id);
  if (!policy.enabled) {
    return {
      kind: "not_found",
      message: `Item ${body.item_id} does not take licence activations through this server: its seller has not turned them on.`,
    };
  }
  const code = cleaned.code;
  const codeHash = hashPurchaseCode(code, deps.hashKey);
  const limited = await takeLicenceRequest(deps.limits, {
    codeHash,
    itemId: body.item_id,
    address: call.clientAddress,
  });
  if (!limited.allowed) {
    const whose = { code: "this purchase code", address: "your address", item: "this item" }[limited.limitedBy];
    return {
      kind: "rate_limited",
      message: `Too many licence requests for ${whose} this minute: try again in ${limited.retryAfterSeconds} s (Retry-After).`,
      retryAfterSeconds: limited.retryAfterSeconds,
    };
  }
  return {
    code,
    codeHash,
    codeLast4: purchaseCodeLast4(code),
    forms: purchaseCodeForms(cleaned, deps.format),
    instance: read.instance,
    policy,
  };
}

const isPrepared = (value: Prepared | LicenceOutcome): value is Prepared => !("kind" in value);

function factsOfKnown(known: KnownPurchasesTable): PurchaseFacts {
  return {
    status: known.status === "revoked" ? "revoked" : "active",
    itemId: Number(known.item_id),
    itemName: known.item_name,
    licenceType: known.license_type,
    supportedUntil: known.supported_until,
    fresh: false,
    asOf: known.last_valid_at,
  };
}

/**
 * The purchase's verdict. The item API is asked through the shared cache: copies of one code asking at once, on
 * any instance, make one call, and a code answered within the cache's lifetime none; a call takes its slot of
 * this API's budget first. When no slot is left, or the item API does not answer, the last verdict stands
 * (marked not fresh); a code never seen valid then gets "try later".
 */
async function purchaseVerdict(deps: LicenceDeps, prepared: Prepared, call: LicenceCall): Promise<Verdict> {
  const { db, hashKey } = deps;
  const hashes = prepared.forms.map((form) => hashPurchaseCode(form, hashKey));
  // A verdict of the cache's lifetime stands, whichever check made it (the checker, the sweep, a licence call): a
  // revocation the checker found is answered at once, and a crowd of one code's copies costs no call at all.
  const recent = await knownPurchase(db, hashes);
  if (recent && Date.now() - Date.parse(recent.verified_at) < deps.verdictTtlMs) {
    return { kind: "purchase", facts: { ...factsOfKnown(recent), fresh: true } };
  }
  const budget = licenceBudget(deps.itemsCallsPerMinute, deps.limits);
  let asked = false;
  const beforeCall = async () => {
    const wait = await budget.take();
    if (wait > 0) throw new LicenceBudgetSpent(wait);
    asked = true;
  };
  let answer;
  try {
    answer = await deps.items.validatePurchase(prepared.code, { shared: true, beforeCall });
  } catch (error) {
    const spent = isLicenceBudgetSpent(error);
    const rateLimited = isUpstreamError(error) && error.kind === "rate_limited";
    if (!spent && !rateLimited && !answersFromLastVerdict(error)) throw error;
    if (recent) return { kind: "purchase", facts: factsOfKnown(recent) };
    const retryAfterSeconds = spent ? Math.max(1, Math.ceil(error.retryAfterMs / 1000)) : UNAVAILABLE_RETRY_SECONDS;
    return { kind: "unavailable", retryAfterSeconds };
  }
  const at = new Date();
  if (asked) {
    // Only the call that asked settles and records: the copies that shared its answer add nothing new.
    const settings = await lifecycleSettings(db);
    const itemAnswer = answer.valid
      ? ({ status: "valid", purchase: answer.purchase } as const)
      : ({ status: "invalid", reason: answer.message } as const);
    const settled = await settleAnswer(
      { db, hashKey, settings },
      { code: prepared.code, forms: prepared.forms, answer: itemAnswer, at },
    );
    await recordCheck(
      db,
      hashKey,
      {
        user: { id: null, email: null },
        code: prepared.code,
        at,
        source: "licence",
        requestId: call.requestId,
        origin: { clientAddress: call.clientAddress },
        ...(answer.valid
          ? { outcome: "valid", reason: null, purchase: answer.purchase }
          : { outcome: settled.outcome, reason: settled.reason, previous: settled.lifecycle.previously_valid }),
      },
      { request_id: call.requestId },
    );
  }
  if (answer.valid) {
    const { purchase } = answer;
    return {
      kind: "purchase",
      facts: {
        status: "active",
        itemId: purchase.item.id,
        itemName: purchase.item.name,
        licenceType: purchase.license_type,
        supportedUntil: purchase.supported_until ?? null,
        fresh: true,
        asOf: at.toISOString(),
      },
    };
  }
  // Refused now: a code once valid is a revoked purchase; any other is no purchase at all.
  const known = await knownPurchase(db, hashes);
  return known
    ? { kind: "purchase", facts: { ...factsOfKnown(known), status: "revoked", fresh: true, asOf: known.last_valid_at } }
    : { kind: "not_purchase" };
}

const notPurchaseOf = (itemId: number): LicenceOutcome => ({
  kind: "not_found",
  message: `This purchase code is not a valid purchase of item ${itemId}: check the code in the buyer's downloads page (it is the item's licence certificate's "Item Purchase Code").`,
});

function unavailable(retryAfterSeconds: number): LicenceOutcome {
  return {
    kind: "unavailable",
    message: `The purchase cannot be checked right now: try again in ${retryAfterSeconds} s (Retry-After). An activated copy keeps working on its last signed answer meanwhile.`,
    retryAfterSeconds,
  };
}

/**
 * A code whose purchase is known revoked (found by any check: the checker, a bulk job, a helpdesk, the sweep, this
 * API), under a policy that releases activations: every activation of it for that item released now, each told as
 * licence.deactivated by "refund". Run by every licence call and when staff list the code's activations.
 */
export async function releaseIfRevoked(db: Db, hashes: readonly string[], at = new Date()): Promise<number> {
  const known = await knownPurchase(db, hashes);
  if (known?.status !== "revoked") return 0;
  const itemId = Number(known.item_id);
  if (!(await licencePolicy(db, itemId)).revoked_deactivates) return 0;
  const how: Deactivation = { by: "refund", reason: "The purchase was refunded or reversed.", at };
  let released = 0;
  for (const hash of hashes) {
    const rows = await resetCode(db, hash, itemId, how);
    for (const activation of rows)
      await announceDeactivation(activation, { codeHash: hash, codeLast4: known.code_last4 }, how);
    released += rows.length;
  }
  return released;
}

/** The licence call's own release: its code's forms, when its verdict says revoked. */
async function releaseOnRevocation(
  deps: LicenceDeps,
  prepared: Prepared,
  facts: PurchaseFacts,
  at: Date,
): Promise<number> {
  if (facts.status !== "revoked") return 0;
  return releaseIfRevoked(
    deps.db,
    prepared.forms.map((form) => hashPurchaseCode(form, deps.hashKey)),
    at,
  );
}

export async function announceDeactivation(
  activation: ReturnType<typeof activationOf>,
  licence: { codeHash: string; codeLast4: string },
  how: Deactivation,
): Promise<void> {
  await emitEvent({
    type: "licence.deactivated",
    occurredAt: how.at,
    data: {
      activation_id: activation.id,
      item_id: activation.item_id,
      code_hash: licence.codeHash,
      code_last4: licence.codeLast4,
      instance: { kind: activation.instance.kind, value: activation.instance.value },
      by: how.by,
      reason: how.reason,
    },
  });
}

function answerOf(
  prepared: Prepared,
  facts: PurchaseFacts,
  used: number,
  activation: ReturnType<typeof activationOf> | null,
  nonce: string | undefined,
  at: Date,
): LicenceAnswer {
  return {
    active: activation?.status === "active",
    licence: {
      status: facts.status,
      item_id: facts.itemId,
      item_name: facts.itemName,
      licence_type: facts.licenceType,
      supported_until: facts.supportedUntil,
      code_last4: prepared.codeLast4,
      activations: { used, allowed: activationsAllowed(prepared.policy, facts.licenceType) },
    },
    activation: activation ? publicActivation(activation) : null,
    verdict: { fresh: facts.fresh, as_of: facts.asOf },
    issued_at: at.toISOString(),
    nonce: nonce ?? null,
  };
}

/**
 * The call prepared and the verdict for its item: the purchase's facts and the time of the answer, or the outcome
 * that ends the call (a refused request, no purchase of that item, the item API unavailable).
 */
async function purchaseOfItem(
  deps: LicenceDeps,
  call: LicenceCall,
): Promise<{ prepared: Prepared; facts: PurchaseFacts; at: Date } | { outcome: LicenceOutcome }> {
  const prepared = await prepare(deps, call);
  if (!isPrepared(prepared)) return { outcome: prepared };
  const verdict = await purchaseVerdict(deps, prepared, call);
  if (verdict.kind === "unavailable") return { outcome: unavailable(verdict.retryAfterSeconds) };
  if (verdict.kind === "not_purchase" || verdict.facts.itemId !== call.body.item_id) {
    return { outcome: notPurchaseOf(call.body.item_id) };
  }
  return { prepared, facts: verdict.facts, at: new Date() };
}

/** POST /api/licences/activate */
export async function activateLicence(deps: LicenceDeps, call: LicenceCall): Promise<LicenceOutcome> {
  const found = await purchaseOfItem(deps, call);
  if ("outcome" in found) return found.outcome;
  const { prepared, facts, at } = found;
  const licence = { codeHash: prepared.codeHash, codeLast4: prepared.codeLast4, itemId: facts.itemId };
  if (facts.status === "revoked") {
    const released = await releaseOnRevocation(deps, prepared, facts, at);
    const freed =
      released > 0 ? ` Its ${released === 1 ? "activation was" : `${released} activations were`} released.` : "";
    return {
      kind: "not_found",
      message: `This purchase of item ${facts.itemId} was refunded or reversed: it no longer activates copies.${freed}`,
    };
  }
  const allowed = activationsAllowed(prepared.policy, facts.licenceType);
  const counted = !neverCounted(prepared.instance, prepared.policy.never_count);
  const result = await activate(deps.db, licence, prepared.instance, { counted, allowed, at });
  const eventData = {
    item_id: facts.itemId,
    code_hash: prepared.codeHash,
    code_last4: prepared.codeLast4,
    instance: { kind: prepared.instance.kind, value: prepared.instance.value },
  };
  if (result.kind === "limit") {
    await emitEvent({
      type: "licence.limit_reached",
      occurredAt: at,
      data: { ...eventData, used: result.used, allowed, licence_type: facts.licenceType },
    });
    const where = result.active.map((activation) => activation.instance.value).slice(0, 5);
    const more = result.active.length > where.length ? ` and ${result.active.length - where.length} more` : "";
    return {
      kind: "limit_reached",
      message: `This ${facts.licenceType} allows ${allowed} ${allowed === 1 ? "activation" : "activations"}, and ${result.used} ${result.used === 1 ? "is" : "are"} in use (${where.join(", ")}${more}). Deactivate the copy on one of them (POST /api/licences/deactivate from that copy, or its licence screen), or ask the seller's support to reset an activation.`,
    };
  }
  if (result.kind === "activated") {
    await emitEvent({
      type: "licence.activated",
      occurredAt: at,
      data: { ...eventData, activation_id: result.activation.id, counted, used: result.used, allowed },
    });
  }
  return { kind: "answer", answer: answerOf(prepared, facts, result.used, result.activation, call.body.nonce, at) };
}

/** POST /api/licences/validate: is this instance still active, is the purchase still valid. */
export async function validateLicence(deps: LicenceDeps, call: LicenceCall): Promise<LicenceOutcome> {
  const found = await purchaseOfItem(deps, call);
  if ("outcome" in found) return found.outcome;
  const { prepared, facts, at } = found;
  await releaseOnRevocation(deps, prepared, facts, at);
  const licence = { codeHash: prepared.codeHash, itemId: facts.itemId };
  const row = await instanceActivation(deps.db, licence, prepared.instance);
  let activation = row ? activationOf(row) : null;
  if (activation?.status === "active") activation = await noteSeen(deps.db, activation, at);
  const used = await activationsUsed(deps.db, licence);
  return { kind: "answer", answer: answerOf(prepared, facts, used, activation, call.body.nonce, at) };
}

/** POST /api/licences/deactivate: the copy frees its activation (no item API call: the code proves the buyer). */
export async function deactivateLicence(deps: LicenceDeps, call: LicenceCall): Promise<LicenceOutcome> {
  const prepared = await prepare(deps, call);
  if (!isPrepared(prepared)) return prepared;
  const at = new Date();
  const licence = { codeHash: prepared.codeHash, itemId: call.body.item_id };
  const how: Deactivation = { by: "copy", reason: null, at };
  const activation = await deactivateInstance(deps.db, licence, prepared.instance, how);
  if (!activation) {
    return {
      kind: "not_found",
      message: `This copy (${prepared.instance.value}) holds no active activation of this purchase code for item ${call.body.item_id}.`,
    };
  }
  await announceDeactivation(activation, prepared, how);
  const known = await knownPurchase(
    deps.db,
    prepared.forms.map((form) => hashPurchaseCode(form, deps.hashKey)),
  );
  const facts: PurchaseFacts = known
    ? factsOfKnown(known)
    : {
        status: "active",
        itemId: call.body.item_id,
        itemName: "",
        licenceType: "",
        supportedUntil: null,
        fresh: false,
        asOf: activation.activated_at,
      };
  const used = await activationsUsed(deps.db, licence);
  return { kind: "answer", answer: answerOf(prepared, facts, used, activation, call.body.nonce, at) };
}
