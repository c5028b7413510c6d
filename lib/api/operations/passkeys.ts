// Passkeys (issue 36): a person's own list (register, rename, remove: a session only, never a token), the options
// of a WebAuthn ceremony, and a sign-in with a passkey alone. The second step with a passkey is POST
// /api/auth/second-factor (./accounts.ts), the step-up's POST /api/auth/step-up (./step-up.ts).
import { CurrentSessionSchema } from "@/lib/contract/accounts";
import { dataEnvelope, EmptyQuerySchema } from "@/lib/contract/common";
import {
  AuthenticationOptionsSchema,
  PasskeyIdParamsSchema,
  PasskeyOptionsBodySchema,
  PasskeyRegisterBodySchema,
  PasskeyRenameBodySchema,
  PasskeySchema,
  PasskeySignInBodySchema,
  RegistrationOptionsSchema,
} from "@/lib/contract/passkeys";
import { MAX_PASSKEYS_PER_USER } from "@/lib/contract/values";

import { field, text } from "./targets";
import type { AuditFacts, OperationSpec } from "./types";

/** The audit row's detail of a passkey added or removed: which kind, its id and name (never its credential). */
const passkeyDetail = ({ data, params }: AuditFacts) => ({
  kind: "passkey",
  passkey_id: text(field(data, "id")) ?? text(params.id),
  name: text(field(data, "name")),
});

export const passkeyOperations = {
  listPasskeys: {
    id: "listPasskeys",
    method: "GET",
    path: "/api/auth/passkeys",
    summary: "Your passkeys, oldest first: each one's name, when it was added and last used",
    tag: "Accounts",
    permission: "signed_in",
    sessionOnly: true,
    duringEnrolment: true,
    query: EmptyQuerySchema,
    success: { status: 200, description: "His passkeys", schema: dataEnvelope(PasskeySchema.array()) },
  },
  passkeyRegistrationOptions: {
    id: "passkeyRegistrationOptions",
    method: "POST",
    path: "/api/auth/passkeys/options",
    summary: `The options for registering a new passkey (navigator.credentials.create): discoverable, with user verification; your own passkeys excluded. At most ${MAX_PASSKEYS_PER_USER} passkeys per person`,
    tag: "Accounts",
    permission: "signed_in",
    sessionOnly: true,
    duringEnrolment: true,
    query: EmptyQuerySchema,
    success: { status: 200, description: "The options", schema: dataEnvelope(RegistrationOptionsSchema) },
    errors: ["conflict", "forbidden", "server_busy"],
  },
  registerPasskey: {
    id: "registerPasskey",
    method: "POST",
    path: "/api/auth/passkeys",
    summary:
      "Register a passkey: its name and the browser's answer to the options of POST /api/auth/passkeys/options (their challenge used once). An enrolment: a session the policy held to enrolment is free afterwards",
    tag: "Accounts",
    permission: "signed_in",
    sessionOnly: true,
    duringEnrolment: true,
    query: EmptyQuerySchema,
    body: PasskeyRegisterBodySchema,
    success: { status: 201, description: "The passkey", schema: dataEnvelope(PasskeySchema) },
    errors: ["conflict", "forbidden"],
    audit: { action: "auth.factor_enrolled", detail: passkeyDetail },
  },
  renamePasskey: {
    id: "renamePasskey",
    method: "PATCH",
    path: "/api/auth/passkeys/{id}",
    summary: "Rename one of your passkeys",
    tag: "Accounts",
    permission: "signed_in",
    sessionOnly: true,
    params: PasskeyIdParamsSchema,
    query: EmptyQuerySchema,
    body: PasskeyRenameBodySchema,
    success: { status: 200, description: "The passkey", schema: dataEnvelope(PasskeySchema) },
    notFound: "You have no passkey with id {id}.",
  },
  removePasskey: {
    id: "removePasskey",
    method: "DELETE",
    path: "/api/auth/passkeys/{id}",
    summary:
      "Remove one of your passkeys. Refused (409) when it is your last second factor and you must have one (the policy covers your role, or you are the break-glass admin)",
    tag: "Accounts",
    permission: "signed_in",
    sessionOnly: true,
    params: PasskeyIdParamsSchema,
    query: EmptyQuerySchema,
    success: { status: 200, description: "The passkey, removed", schema: dataEnvelope(PasskeySchema) },
    notFound: "You have no passkey with id {id}.",
    errors: ["conflict"],
    audit: { action: "auth.factor_removed", detail: passkeyDetail },
  },
  passkeyOptions: {
    id: "passkeyOptions",
    method: "POST",
    path: "/api/auth/passkey/options",
    summary:
      "The options for an assertion (navigator.credentials.get): sign_in, a passkey alone (none named: the browser offers this site's); second_factor, the sign-in waiting for its second step (his passkeys); step_up, the signed-in person's",
    tag: "Accounts",
    permission: "public",
    optionalSession: true,
    query: EmptyQuerySchema,
    body: PasskeyOptionsBodySchema,
    success: { status: 200, description: "The options", schema: dataEnvelope(AuthenticationOptionsSchema) },
    errors: ["second_step_expired", "unauthenticated", "conflict", "server_busy"],
  },
  passkeySignIn: {
    id: "passkeySignIn",
    method: "POST",
    path: "/api/auth/passkey",
    summary:
      "Sign in with a passkey alone: the browser's answer to the options of purpose sign_in. Sets the session cookie. Wrong answers count toward the sign-in throttle",
    tag: "Accounts",
    permission: "public",
    query: EmptyQuerySchema,
    body: PasskeySignInBodySchema,
    success: {
      status: 200,
      description: "Signed in, the session cookie set",
      schema: dataEnvelope(CurrentSessionSchema),
    },
    errors: ["invalid_credentials", "password_login_off", "rate_limited"],
    duringEnrolment: true,
  },
} as const satisfies Record<string, OperationSpec>;
