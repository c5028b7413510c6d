// Licence activations for support staff and admins (issue 34): a code's activations found by its keyed hash (the
// code is cleaned as a check cleans it, and every form it may have been hashed in is looked up), one activation or
// all of a code's reset with a reason (each one told as licence.deactivated, never with the code), and Admin →
// Licences' state (every item with its policy, the public keys and where they are published).
import "server-only";

import type { ServerContext } from "@/lib/auth/access";
import { hashPurchaseCode } from "@/lib/auth/audit";
import type { LicencesAdmin } from "@/lib/contract/licence-staff";
import { LICENCE_KEYS_PATH, type CodeActivation } from "@/lib/contract/licences";
import { purchaseCodeLast4 } from "@/lib/contract/purchase-code";
import { emitEvent } from "@/lib/events";
import { activationById, codeActivations, resetActivation, resetCode } from "@/lib/licences/activations";
import { licencePolicies, licencePolicy } from "@/lib/licences/policies";
import { releaseIfRevoked } from "@/lib/licences/service";
import { publishedKeys } from "@/lib/licences/signing";
import { PurchaseCodeRefused } from "@/lib/purchases/errors";
import { normalisePurchaseCode, purchaseCodeForms } from "@/lib/purchases/normalise";
import type { ItemsClient } from "@/lib/upstream";

import { ApiError } from "./errors";

/** A code's keyed hashes (every form a copy may have been activated with) and its last 4 characters. */
export interface CodeHashes {
  hashes: string[];
  last4: string;
}

/** The code as a check cleans it; a code the normaliser refuses is a 400 naming the character (in `field`). */
export function codeHashes(server: ServerContext, raw: string, field = "purchase_code"): CodeHashes {
  const format = server.config.purchases.codeFormat;
  const cleaned = normalisePurchaseCode(raw, format);
  if (!cleaned.ok) throw new PurchaseCodeRefused(field, cleaned.reason);
  return {
    hashes: purchaseCodeForms(cleaned, format).map((form) => hashPurchaseCode(form, server.config.dataKey)),
    last4: purchaseCodeLast4(cleaned.code),
  };
}

/** Active first, then deactivated; the most recently seen first within each. */
function byStatusThenSeen(a: CodeActivation, b: CodeActivation): number {
  if (a.status !== b.status) return a.status === "active" ? -1 : 1;
  return b.last_seen_at.localeCompare(a.last_seen_at);
}

/** Every activation of a code (of every item), whatever form of it the copies sent. */
export async function activationsOfCode(server: ServerContext, code: CodeHashes): Promise<CodeActivation[]> {
  // A refund found since the copies last called is applied before staff see them.
  await releaseIfRevoked(server.db, code.hashes);
  const found = await Promise.all(code.hashes.map((hash) => codeActivations(server.db, hash)));
  return found.flat().sort(byStatusThenSeen);
}

/** Who reset, for the event: as every event of a person's doing names him. */
export interface ResetBy {
  user: { id: string; email: string };
  via: "session" | "api_token";
}

/**
 * licence.deactivated for a staff reset, in the shape the licence service sends it for a copy or a refund
 * (lib/licences/service.ts): `by` as the activation keeps it (here the staff member's email) with the reason, and
 * `staff` who did it as every event of a person's doing names him. The code only as its hash and last 4.
 */
async function announceReset(
  activation: CodeActivation,
  code: { hash: string; last4: string },
  reason: string,
  by: ResetBy,
): Promise<void> {
  await emitEvent({
    type: "licence.deactivated",
    data: {
      activation_id: activation.id,
      item_id: activation.item_id,
      code_hash: code.hash,
      code_last4: code.last4,
      instance: { kind: activation.instance.kind, value: activation.instance.value },
      by: by.user.email,
      reason,
      staff: { user_id: by.user.id, email: by.user.email, via: by.via },
    },
  });
}

/** The stored hash and last 4 of an activation's code (read from its row: the code itself is never kept). */
async function codeOfActivation(server: ServerContext, id: string): Promise<{ hash: string; last4: string }> {
  const row = await server.db
    .selectFrom("licence_activations")
    .select(["code_hash", "code_last4"])
    .where("id", "=", id)
    .executeTakeFirstOrThrow();
  return { hash: row.code_hash, last4: row.code_last4 };
}

/**
 * Resets one activation: it as it is now. 404 when there is no such activation, 409 when it is not active any more
 * (naming when and by whom it was deactivated).
 */
export async function resetOneActivation(
  server: ServerContext,
  id: string,
  reason: string,
  by: ResetBy,
): Promise<CodeActivation> {
  const reset = await resetActivation(server.db, id, { by: by.user.email, reason, at: new Date() });
  if (reset) {
    await announceReset(reset, await codeOfActivation(server, id), reason, by);
    return reset;
  }
  const found = await activationById(server.db, id);
  if (!found) {
    throw new ApiError(
      "not_found",
      `There is no activation ${id}: search the code's activations again (POST /api/licences/activations/search).`,
    );
  }
  const when = found.deactivated_at ? ` on ${found.deactivated_at.replace(/\.\d{3}Z$/, "Z")}` : "";
  const who = found.deactivated_by ? ` by ${deactivatedByWords(found.deactivated_by)}` : "";
  throw new ApiError(
    "conflict",
    `Activation ${id} was already deactivated${when}${who}: there is nothing to reset. Its copy can activate again.`,
  );
}

/** "copy" and "refund" in words; a staff member by his email. */
function deactivatedByWords(by: string): string {
  if (by === "copy") return "its copy";
  if (by === "refund") return "the refund of its purchase";
  return by;
}

/** Resets every active activation of a code (of one item, or of all): how many, each told as licence.deactivated. */
export async function resetCodeActivations(
  server: ServerContext,
  code: CodeHashes,
  itemId: number | null,
  reason: string,
  by: ResetBy,
): Promise<number> {
  let count = 0;
  for (const hash of code.hashes) {
    const reset = await resetCode(server.db, hash, itemId, { by: by.user.email, reason, at: new Date() });
    for (const activation of reset) await announceReset(activation, { hash, last4: code.last4 }, reason, by);
    count += reset.length;
  }
  return count;
}

/** Admin → Licences: every item of the seller with its policy (saved or the defaults), and the published keys. */
export async function licencesAdminState(
  server: ServerContext,
  items: ItemsClient,
  origin: string | null,
): Promise<LicencesAdmin> {
  const [listed, saved, keys] = await Promise.all([
    items.listItems(),
    licencePolicies(server.db),
    publishedKeys(server.db, server.config.dataKey),
  ]);
  const policies = new Map(saved.map((policy) => [policy.item_id, policy]));
  return {
    items: await Promise.all(
      listed.map(async (item) => ({
        item_id: item.id,
        item_name: item.name,
        policy: policies.get(item.id) ?? (await licencePolicy(server.db, item.id)),
      })),
    ),
    keys,
    keys_path: LICENCE_KEYS_PATH,
    keys_url: origin ? `${origin}${LICENCE_KEYS_PATH}` : null,
  };
}
