// A person's second factors (issue 36): what he has enrolled. The authenticator app and recovery codes
// (./factors-totp.ts), passkeys (./passkeys.ts) and the step-up (./step-up.ts) keep their entries in files of
// their own.
import { dataEnvelope, EmptyQuerySchema } from "@/lib/contract/common";
import { FactorsOutputSchema } from "@/lib/contract/factors";

import type { OperationSpec } from "./types";

export const factorOperations = {
  showFactors: {
    id: "showFactors",
    method: "GET",
    path: "/api/auth/factors",
    summary:
      "The signed-in person's second factors: passkeys, authenticator app, recovery codes left; whether he has a password and whether the policy requires a second factor of him",
    tag: "Accounts",
    permission: "signed_in",
    sessionOnly: true,
    duringEnrolment: true,
    query: EmptyQuerySchema,
    success: { status: 200, description: "His factors", schema: dataEnvelope(FactorsOutputSchema) },
  },
} as const satisfies Record<string, OperationSpec>;
