// A person's own API tokens: list, make and revoke them, with a signed-in session only (a token never makes a
// token). The admin's list of everyone's tokens is in admin.ts.
import { dataEnvelope, EmptyQuerySchema } from "@/lib/contract/common";
import {
  CreatedTokenSchema,
  TokenCreateBodySchema,
  TokenIdParamsSchema,
  TokenSchema,
  TokenUpdateBodySchema,
  TokenUsageSchema,
} from "@/lib/contract/tokens";
import { MAX_ACTIVE_TOKENS_PER_OWNER, STEP_UP_MINUTES } from "@/lib/contract/values";

import { field, text, tokenTarget } from "./targets";
import type { OperationSpec } from "./types";

export const tokenOperations = {
  listTokens: {
    id: "listTokens",
    method: "GET",
    path: "/api/tokens",
    summary: "Your API tokens (an admin also sees every service account's), newest first; never their secrets",
    tag: "Tokens",
    permission: "signed_in",
    sessionOnly: true,
    query: EmptyQuerySchema,
    success: { status: 200, description: "The tokens", schema: dataEnvelope(TokenSchema.array()) },
  },
  createToken: {
    id: "createToken",
    method: "POST",
    path: "/api/tokens",
    summary: `Make an API token: a name, scopes your role allows, a lifetime (expires_in_days, expires_at, or never_expires for a service account's), and optionally the client ranges it may be used from. The answer carries its secret, this once. A session whose last proof (its sign-in or POST /api/auth/step-up) is more than ${STEP_UP_MINUTES} minutes old is refused 403 step_up_required until it gives a fresh one; an owner may have at most ${MAX_ACTIVE_TOKENS_PER_OWNER} active tokens`,
    tag: "Tokens",
    permission: "signed_in",
    sessionOnly: true,
    stepUp: true,
    query: EmptyQuerySchema,
    body: TokenCreateBodySchema,
    success: {
      status: 201,
      description: "The token with its secret (shown once)",
      schema: dataEnvelope(CreatedTokenSchema),
    },
    errors: ["too_many_tokens"],
    audit: {
      action: "token.create",
      target: ({ data }) => tokenTarget(field(data, "id"), data),
      detail: ({ data }) => ({
        scopes: ((field(data, "scopes") as string[] | undefined) ?? []).map(String),
        expires_at: text(field(data, "expires_at")),
        owner: text(field(field(data, "user"), "email")),
      }),
    },
  },
  updateTokenLimits: {
    id: "updateTokenLimits",
    method: "PATCH",
    path: "/api/tokens/{id}",
    summary:
      "Change a token's own limits (yours, or for an admin a service account's): rate_limit_per_minute and monthly_quota, each a whole number or null for none; a field left out stays as it is. Takes effect on the token's next request",
    tag: "Tokens",
    permission: "signed_in",
    sessionOnly: true,
    params: TokenIdParamsSchema,
    query: EmptyQuerySchema,
    body: TokenUpdateBodySchema,
    success: { status: 200, description: "The token with its limits", schema: dataEnvelope(TokenSchema) },
    notFound: "There is no token with id {id}.",
    audit: {
      action: "token.limits_change",
      target: ({ params, data }) => tokenTarget(params.id, data),
      detail: ({ body }) => ({
        ...(body.rate_limit_per_minute !== undefined && {
          rate_limit_per_minute: body.rate_limit_per_minute as number | null,
        }),
        ...(body.monthly_quota !== undefined && { monthly_quota: body.monthly_quota as number | null }),
      }),
    },
  },
  tokenUsage: {
    id: "tokenUsage",
    method: "GET",
    path: "/api/tokens/usage",
    summary:
      "The last 30 days of requests with the tokens you manage (an admin: every token), per UTC day, token, operation and outcome, with the upstream calls made for them, and which tokens used the most of each upstream. Each instance writes its counts every few seconds",
    tag: "Tokens",
    permission: "signed_in",
    sessionOnly: true,
    query: EmptyQuerySchema,
    success: { status: 200, description: "The usage", schema: dataEnvelope(TokenUsageSchema) },
  },
  revokeToken: {
    id: "revokeToken",
    method: "DELETE",
    path: "/api/tokens/{id}",
    summary:
      "Revoke an API token (yours, or for an admin anyone's): the next request with it is refused (401 token_revoked). Revoking a revoked token answers it as it is",
    tag: "Tokens",
    permission: "signed_in",
    sessionOnly: true,
    params: TokenIdParamsSchema,
    query: EmptyQuerySchema,
    success: { status: 200, description: "The token, revoked", schema: dataEnvelope(TokenSchema) },
    notFound: "There is no token with id {id}.",
    audit: { action: "token.revoke", target: ({ params, data }) => tokenTarget(params.id, data) },
  },
} as const satisfies Record<string, OperationSpec>;
