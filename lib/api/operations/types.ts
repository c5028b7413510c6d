// What an operation is (OperationSpec) and what its audit row and webhook event are made of: the shape every
// resource file of this folder fills in, and what the route pipeline (lib/api/steps) and lib/api/openapi.ts read.
import type { z } from "zod";

import type { NamedAuditTarget } from "@/lib/auth/audit";
import type { GuardedFields } from "@/lib/auth/permissions";

import type { Area } from "@/lib/contract/areas";
import type {
  AuditAction,
  AuditOutcome,
  Permission as AccountPermission,
  WebhookEventType,
} from "@/lib/contract/values";

import type { ErrorCode } from "../errors";

/**
 * What a caller must be allowed to do: a permission of the accounts table (lib/auth/permissions.ts), "signed_in"
 * for anything any signed-in user may do, or "public" for operations that never need a session. Declared on
 * every operation; enforced by the permission step (lib/api/steps/who.ts).
 */
export type Permission = AccountPermission | "signed_in" | "public";

/** What an audited operation was about, from its validated input and its answer's `data`. */
export type AuditTargetSpec =
  | NamedAuditTarget
  /** The wrapper stores a keyed hash and the last 4 characters, never the code. */
  | { type: "purchase_code"; code: string };

export interface OperationEvent {
  type: WebhookEventType;
  data: Record<string, unknown>;
}

export interface AuditFacts {
  /** The validated path parameters; as the path gave them when the request was refused before validation. */
  params: Record<string, unknown>;
  /** The validated body; empty when the request was refused before it was read. */
  body: Record<string, unknown>;
  /** The answer's `data`, on success. */
  data: unknown;
}

export interface AuditSpec {
  /** What was done; a function when one operation does several things (a report's update or regeneration). */
  action: AuditAction | ((facts: AuditFacts) => AuditAction);
  /** What happened, when "success" / "failure" / "denied" would not say it (a purchase check: valid, invalid, failed). */
  outcome?: (facts: AuditFacts, error: ErrorCode | null) => AuditOutcome;
  target?: (facts: AuditFacts) => AuditTargetSpec | null;
  /** Small facts worth keeping (never a credential: lib/auth/audit.ts refuses keys that look like one). */
  detail?: (facts: AuditFacts) => Record<string, string | number | boolean | null | string[]>;
}

/** The groups of the OpenAPI document, with what each holds. */
export const TAGS = {
  Reports: "Area A's web-page reports: list, show, create, change, regenerate and delete",
  Projects: "Area A's projects: list and delete (with their reports)",
  Trends: "Reports over time: each report's result history, results by day, each project's mix, two days compared",
  Schedules: "A project's scheduled regeneration (daily or weekly, in its time zone) and its runs",
  Alerts: "Regression alerts (a result that dropped) and each project's alert rule",
  Items: "Area B's seller account and items",
  Purchases: "Purchase-code checks: one code, bulk jobs of up to 500, and the history of every check",
  Helpdesk: "The purchase check beside a helpdesk ticket: the codes in its text, each checked, kept with the ticket",
  Licences:
    "Licence activations: installed copies activate, validate and deactivate themselves; support staff see and reset them; admins set each item's policy",
  Accounts: "Signing in and out, and the current session",
  Tokens: "API tokens: scoped bearer credentials for scripts and integrations (managed with a signed-in session)",
  Notifications:
    "Notifications where people work: your subscriptions and preferences (quiet hours, the weekly digest); admins' team channels (Slack, Microsoft Teams, e-mail), their subscriptions, the mail server, test messages and delivery logs; one-click unsubscribe",
  Admin: "Users, the audit log and webhook endpoints, for admins",
  Operations: "Liveness, readiness and this document: public, for load balancers and tools",
} as const;
export type Tag = keyof typeof TAGS;

/** What a download may be: CSV, or newline-delimited JSON (one object per line). */
export type DownloadType = "text/csv" | "application/x-ndjson";

export interface OperationSpec {
  /** The OpenAPI operationId. */
  id: string;
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** OpenAPI-style path, e.g. "/api/reports/{id}". */
  path: string;
  summary: string;
  tag: Tag;
  permission: Permission;
  /**
   * Fields of the answer's `data` that only a caller with a further permission sees (for a token: its owner's role
   * and its scope). The wrapper removes them for anyone else (lib/api/route.ts); OpenAPI lists them.
   */
  guardedFields?: GuardedFields;
  /** The upstream area the operation needs; without it configured the route answers 503 area_not_configured. */
  area?: Area;
  params?: z.core.$ZodType;
  query?: z.core.$ZodType;
  /** Query parameters a caller may send and the operation ignores (a CSV takes its list's link as it is): never read, refused or documented. */
  ignoredQuery?: readonly string[];
  body?: z.core.$ZodType;
  /** 302: to another site (the identity provider); 303: to a page of this site. Both with Location. */
  success: {
    status: 200 | 201 | 202 | 204 | 302 | 303;
    description: string;
    schema?: z.core.$ZodType;
    /** A download instead of JSON: its type, or the types a `format` query parameter picks from. */
    contentType?: DownloadType | readonly DownloadType[];
  };
  /**
   * The body is signed by its sender instead of a session or a token (Help Scout's dynamic app): the parse step
   * reads its bytes as they came (capped like any body) and leaves them to the handler (`rawBody`), which checks
   * the signature over them and only then reads them with `body` (`readBody`), so that a request signed wrong is a
   * 401 whatever its body holds.
   */
  rawBody?: true;
  /** A larger cap on the JSON body than MAX_BODY_BYTES (lib/api/steps/parse.ts), for batches. */
  maxBodyBytes?: number;
  /** The message of a 404 when the upstream says the resource does not exist; `{name}` takes the path parameter. */
  notFound?: string;
  /** Error codes this operation can answer beyond the ones every upstream operation can. */
  errors?: ErrorCode[];
  /** One audit row per call by a signed-in user, written by the wrapper (success, failure or denied). */
  audit?: AuditSpec;
  /** A per-user and per-address rate limit applies (PURCHASE_RATE_LIMIT_PER_USER / _PER_IP). */
  rateLimit?: "purchase";
  /**
   * Every answer, success or error, is signed with the licence signing key (lib/licences/signing.ts): the
   * signature of the body's bytes in Gatehouse-Signature, the key's id in Gatehouse-Signature-Key.
   */
  signed?: true;
  /** A public operation that still wants the caller's session when there is a valid one (sign-out). */
  optionalSession?: true;
  /**
   * A session that must enrol a second factor first (the policy covers his role and he has none: SessionData's
   * mustEnrol) may still do this: sign in and out, read the session, and the enrolment itself. Every other
   * operation answers it 403 second_factor_required (lib/api/steps/who.ts).
   */
  duringEnrolment?: true;
  /**
   * A sensitive action (set an upstream key, make a token, add a webhook or a channel, change a role, reset
   * factors): a session must have given a proof at most STEP_UP_MINUTES ago (its sign-in or POST
   * /api/auth/step-up), else 403 step_up_required, which the portal's forms answer by asking for one in place.
   */
  stepUp?: true;
  /** Only a signed-in session may do this, never an API token (managing tokens themselves). */
  sessionOnly?: true;
  /**
   * The webhook events a success can be (lib/events), declared as a list so that the table itself says which
   * operation emits what (tests/unit/lib/api/operations/index.test.ts holds every operation to its list); `describe`
   * picks one from the same facts as the audit row, after the answer is known, and a type outside `emits` is
   * never sent (lib/api/steps/events.ts). `code` turns a purchase code into its keyed hash and last 4
   * characters: an event never holds a code.
   */
  event?: {
    emits: readonly WebhookEventType[];
    describe: (facts: AuditFacts, code: (code: string) => { hash: string; last4: string }) => OperationEvent | null;
  };
  /**
   * The operation also takes its page's HTML form, posted without JavaScript (application/x-www-form-urlencoded,
   * with a `next` field): it then proves itself by its Origin instead of X-CSRF, and answers 303 — to `next` on
   * success, to `page?error=<code>&next=…` on failure — instead of JSON (lib/api/steps/parse.ts, answer.ts).
   */
  form?: { page: string };
}
