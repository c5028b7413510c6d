// The step-up (issue 36): a fresh proof that this is the person, which a sensitive operation (`stepUp: true`, checked
// by lib/api/steps/who.ts) needs when the session's last one is older than STEP_UP_MINUTES.
import { dataEnvelope, EmptyQuerySchema } from "@/lib/contract/common";
import { ProofSchema, StepUpOutputSchema } from "@/lib/contract/factors";
import { STEP_UP_MINUTES } from "@/lib/contract/values";

import type { OperationSpec } from "./types";

export const stepUpOperations = {
  stepUp: {
    id: "stepUp",
    method: "POST",
    path: "/api/auth/step-up",
    summary: `Prove again that it is you, for the sensitive actions that answered 403 step_up_required: a passkey's assertion (options from POST /api/auth/passkey/options with purpose step_up), an authenticator code, a recovery code (used up) or the password (not for single sign-on users). The session is then fresh for ${STEP_UP_MINUTES} minutes. Wrong ones count toward the sign-in throttle`,
    tag: "Accounts",
    permission: "signed_in",
    sessionOnly: true,
    query: EmptyQuerySchema,
    body: ProofSchema,
    success: {
      status: 200,
      description: "Proven; the session cookie is rewritten",
      schema: dataEnvelope(StepUpOutputSchema),
    },
    errors: ["invalid_credentials", "invalid_second_factor", "rate_limited", "server_busy"],
  },
} as const satisfies Record<string, OperationSpec>;
