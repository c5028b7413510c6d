// Signing in and out (password or single sign-on) and the current session: mostly public operations, since
// they are how a caller gets a session in the first place.
import { z } from "zod";

import {
  CurrentSessionSchema,
  LoginBodySchema,
  MeUpdateBodySchema,
  SsoStartQuerySchema,
} from "@/lib/contract/accounts";
import { dataEnvelope, EmptyQuerySchema } from "@/lib/contract/common";
import { SecondStepBodySchema, SecondStepNeededSchema } from "@/lib/contract/factors";

import type { OperationSpec } from "./types";

export const accountOperations = {
  login: {
    id: "login",
    method: "POST",
    path: "/api/auth/login",
    summary: "Sign in: sets the session cookie",
    tag: "Accounts",
    permission: "public",
    query: EmptyQuerySchema,
    body: LoginBodySchema,
    form: { page: "/login" },
    success: {
      status: 200,
      description:
        "Signed in, the session cookie set; or, for a person with a second factor, the second step asked for (POST /api/auth/second-factor within 5 minutes)",
      schema: dataEnvelope(z.union([CurrentSessionSchema, SecondStepNeededSchema])),
    },
    errors: ["invalid_credentials", "password_login_off", "rate_limited", "server_busy"],
    duringEnrolment: true,
  },
  secondFactor: {
    id: "secondFactor",
    method: "POST",
    path: "/api/auth/second-factor",
    summary:
      "The second step of a sign-in, after the password: a passkey's assertion, an authenticator code or a recovery code (each used once). Wrong ones count toward the sign-in throttle",
    tag: "Accounts",
    permission: "public",
    query: EmptyQuerySchema,
    body: SecondStepBodySchema,
    form: { page: "/login/second-step" },
    success: {
      status: 200,
      description: "Signed in; the session cookie is set",
      schema: dataEnvelope(CurrentSessionSchema),
    },
    errors: ["invalid_second_factor", "second_step_expired", "rate_limited", "server_busy"],
  },
  ssoStart: {
    id: "ssoStart",
    method: "GET",
    path: "/api/auth/oidc/start",
    summary:
      "Sign in with the identity provider (OpenID Connect): 302 to its sign-in page, with state, nonce and the PKCE verifier kept in a sealed cookie for 10 minutes; when its discovery document cannot be had (none fetched yet in this process, which keeps it an hour), 303 to /login?error=sso_unavailable",
    tag: "Accounts",
    permission: "public",
    query: SsoStartQuerySchema,
    success: { status: 302, description: "To the provider's sign-in page (or 303 to /login?error=<code>)" },
  },
  ssoCallback: {
    id: "ssoCallback",
    method: "GET",
    path: "/api/auth/oidc/callback",
    summary:
      "Where the provider sends the browser back (its query: code, state, iss, or error). A GET without X-CSRF: the state and the PKCE verifier, bound to the browser's transaction cookie and checked by the client library with the ID token, prove this browser started the sign-in. 303 to the page asked for with the session cookie, or to /login?error=<code>",
    tag: "Accounts",
    permission: "public",
    optionalSession: true,
    success: {
      status: 303,
      description: "To the page asked for with the session cookie, or to /login?error=<code> (one sentence there)",
    },
  },
  logout: {
    id: "logout",
    method: "POST",
    path: "/api/auth/logout",
    summary:
      "Sign out: ends every session of the signed-in user and clears the cookie (204 even without a session). After a single sign-on, when the provider offers RP-initiated logout: 200 {data:{end_session_url}}, where the browser goes next to end the provider's session too",
    tag: "Accounts",
    permission: "public",
    optionalSession: true,
    duringEnrolment: true,
    query: EmptyQuerySchema,
    success: { status: 204, description: "Signed out" },
  },
  me: {
    id: "me",
    method: "GET",
    path: "/api/auth/me",
    summary: "The signed-in user, his permissions and when the session ends",
    tag: "Accounts",
    permission: "signed_in",
    duringEnrolment: true,
    query: EmptyQuerySchema,
    success: { status: 200, description: "The current session", schema: dataEnvelope(CurrentSessionSchema) },
  },
  updateMe: {
    id: "updateMe",
    method: "PATCH",
    path: "/api/auth/me",
    summary:
      "Set the signed-in user's own time zone, in which the portal shows times and reads days (today, the history's from and to); null: his browser's",
    tag: "Accounts",
    permission: "signed_in",
    query: EmptyQuerySchema,
    body: MeUpdateBodySchema,
    success: { status: 200, description: "The current session", schema: dataEnvelope(CurrentSessionSchema) },
  },
} as const satisfies Record<string, OperationSpec>;
