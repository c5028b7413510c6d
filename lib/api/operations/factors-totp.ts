// The authenticator app (TOTP) and recovery codes of the signed-in person, and the admin's sign-in policy (issue
// 36). Enrolment is open to a session the policy holds to enrolment (duringEnrolment). The events
// (account.factor_enrolled, factor_removed) go through announceFactorChange in the routes, not `event` here.
import { dataEnvelope, EmptyQuerySchema } from "@/lib/contract/common";
import {
  FactorRemovedSchema,
  RecoveryCodesSchema,
  SignInPolicyBodySchema,
  SignInPolicySchema,
  TotpConfirmBodySchema,
  TotpConfirmedSchema,
  TotpEnrolmentSchema,
} from "@/lib/contract/factors-totp";

import { field, text } from "./targets";
import type { OperationSpec } from "./types";

export const totpOperations = {
  startTotpEnrolment: {
    id: "startTotpEnrolment",
    method: "POST",
    path: "/api/auth/totp",
    summary:
      "Start adding an authenticator app: a new secret (sealed at rest), its otpauth:// URI and QR code (SVG), and the secret for typing. Not a factor until confirmed; starting again replaces an unconfirmed secret. Refused while an app is confirmed (remove it first) and for single sign-on accounts",
    tag: "Accounts",
    permission: "signed_in",
    sessionOnly: true,
    duringEnrolment: true,
    query: EmptyQuerySchema,
    success: { status: 200, description: "The secret to add to the app", schema: dataEnvelope(TotpEnrolmentSchema) },
    errors: ["conflict"],
  },
  confirmTotpEnrolment: {
    id: "confirmTotpEnrolment",
    method: "POST",
    path: "/api/auth/totp/confirm",
    summary:
      "Confirm the authenticator app with the code it shows now: it becomes a second factor (asked at every sign-in). With it, his first factor, come ten recovery codes, answered this once",
    tag: "Accounts",
    permission: "signed_in",
    sessionOnly: true,
    duringEnrolment: true,
    query: EmptyQuerySchema,
    body: TotpConfirmBodySchema,
    success: {
      status: 200,
      description: "The app is his second factor; recovery codes when he had none",
      schema: dataEnvelope(TotpConfirmedSchema),
    },
    errors: ["conflict"],
    audit: {
      action: "auth.factor_enrolled",
      detail: ({ data }) => ({
        kind: "totp",
        recovery_codes_made: Array.isArray(field(data, "recovery_codes")),
      }),
    },
  },
  removeTotp: {
    id: "removeTotp",
    method: "DELETE",
    path: "/api/auth/totp",
    summary:
      "Remove the authenticator app. Refused (409) when it is his last second factor and the admin's policy requires one of him",
    tag: "Accounts",
    permission: "signed_in",
    sessionOnly: true,
    stepUp: true,
    query: EmptyQuerySchema,
    success: { status: 200, description: "What he has left", schema: dataEnvelope(FactorRemovedSchema) },
    notFound: "You have no authenticator app to remove.",
    errors: ["conflict"],
    audit: { action: "auth.factor_removed", detail: () => ({ kind: "totp" }) },
  },
  regenerateRecoveryCodes: {
    id: "regenerateRecoveryCodes",
    method: "POST",
    path: "/api/auth/recovery-codes",
    summary:
      "Make ten new recovery codes, answered this once; every code he had stops working. Needs a second factor (an authenticator app or a passkey)",
    tag: "Accounts",
    permission: "signed_in",
    sessionOnly: true,
    stepUp: true,
    query: EmptyQuerySchema,
    success: { status: 200, description: "The new codes", schema: dataEnvelope(RecoveryCodesSchema) },
    errors: ["conflict"],
    audit: { action: "auth.recovery_codes_regenerated" },
  },
  getSignInPolicy: {
    id: "getSignInPolicy",
    method: "GET",
    path: "/api/admin/sign-in-policy",
    summary: "Who must have a second factor to sign in with a password: nobody (off), admins, or everyone",
    tag: "Admin",
    permission: "users:manage",
    query: EmptyQuerySchema,
    success: { status: 200, description: "The policy", schema: dataEnvelope(SignInPolicySchema) },
  },
  saveSignInPolicy: {
    id: "saveSignInPolicy",
    method: "PUT",
    path: "/api/admin/sign-in-policy",
    summary:
      "Set who must have a second factor. A person it covers who has none is sent to enrol at his next sign-in. Whoever enrolled a factor always uses it",
    tag: "Admin",
    permission: "users:manage",
    stepUp: true,
    query: EmptyQuerySchema,
    body: SignInPolicyBodySchema,
    success: { status: 200, description: "The policy", schema: dataEnvelope(SignInPolicySchema) },
    audit: {
      action: "auth.factor_policy_update",
      detail: ({ body }) => ({ second_factor_policy: text(body.second_factor_policy) }),
    },
  },
} as const satisfies Record<string, OperationSpec>;
