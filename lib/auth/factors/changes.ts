// A person's factors changed: the event that tells webhooks and notifications of it. The audit row is the
// operation's (lib/api/operations, written by the route wrapper) or, outside a request (the users CLI), the
// caller's; the event is sent from here so that every path sends the same one.
import "server-only";

import { emitEvent } from "@/lib/events";
import type { FactorKind } from "@/lib/contract/values";

import type { User } from "../users";

export type FactorChange =
  | { type: "account.factor_enrolled"; kind: FactorKind }
  | { type: "account.factor_removed"; kind: FactorKind }
  | { type: "account.recovery_code_used"; codesLeft: number }
  | { type: "account.factors_reset" };

/** Sends the event (never a secret, a code or a credential id: who, which kind, and how many codes are left). */
export async function announceFactorChange(user: Pick<User, "id" | "email">, change: FactorChange): Promise<void> {
  const { type, ...facts } = change;
  await emitEvent({
    type,
    data: {
      user: { id: user.id, email: user.email },
      ...("kind" in facts ? { kind: facts.kind } : {}),
      ...("codesLeft" in facts ? { recovery_codes_left: facts.codesLeft } : {}),
    },
  });
}
