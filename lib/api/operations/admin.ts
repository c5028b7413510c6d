// What admins manage: users, everyone's API tokens, webhook endpoints, the audit log, the upstream keys and the
// helpdesks' settings.
import { UserCreateBodySchema, UserIdParamsSchema, UserSchema, UserUpdateBodySchema } from "@/lib/contract/accounts";
import { AuditExportQuerySchema, AuditListQuerySchema, AuditRecordSchema } from "@/lib/contract/audit";
import { dataEnvelope, EmptyQuerySchema, pageEnvelope } from "@/lib/contract/common";
import { HelpdeskSettingsSchema, HelpScoutSecretSchema } from "@/lib/contract/helpdesk";
import { TokenListQuerySchema, TokenSchema } from "@/lib/contract/tokens";
import type { AuditAction } from "@/lib/contract/values";
import {
  KeyChangeResultSchema,
  KeyTestResultSchema,
  UpstreamAreaParamsSchema,
  UpstreamAreaStatusSchema,
  UpstreamKeyBodySchema,
  UpstreamKeyParamsSchema,
} from "@/lib/contract/upstream-keys";
import {
  WebhookCreateBodySchema,
  WebhookDeliveryParamsSchema,
  WebhookDeliverySchema,
  WebhookIdParamsSchema,
  WebhookSchema,
  WebhookUpdateBodySchema,
  WebhookWithSecretSchema,
} from "@/lib/contract/webhooks";

import { field, text, upstreamAreaTarget, userTarget, webhookTarget } from "./targets";
import type { AuditSpec, OperationSpec } from "./types";

/** The fingerprints before and after a key change (never the key). */
function changeDetail(data: unknown): Record<string, string | null> {
  const change = field(data, "change");
  return {
    area: text(field(change, "area")),
    old_fingerprint: text(field(change, "old_fingerprint")),
    new_fingerprint: text(field(change, "new_fingerprint")),
  };
}

/** What every key change (set, restore, remove) answers. */
const keyChangeAnswer = {
  description: "The change and the area's new state",
  schema: dataEnvelope(KeyChangeResultSchema),
};

/** Every key change records the area and the fingerprints before and after. */
function keyChangeAudit(action: AuditAction): AuditSpec {
  return {
    action,
    target: ({ params }) => upstreamAreaTarget(params.area),
    detail: ({ data }) => changeDetail(data),
  };
}

/** What the operations on one stored key (restore, remove) share: who may, which key, the answer and its 404. */
const storedKeyOperation = {
  tag: "Admin",
  permission: "upstream:manage",
  params: UpstreamKeyParamsSchema,
  query: EmptyQuerySchema,
  success: { status: 200, ...keyChangeAnswer },
  notFound: "There is no such stored key for the area.",
} as const;

export const adminOperations = {
  listUsers: {
    id: "listUsers",
    method: "GET",
    path: "/api/admin/users",
    summary: "Every portal user, by email",
    tag: "Admin",
    permission: "users:manage",
    query: EmptyQuerySchema,
    success: { status: 200, description: "The users", schema: dataEnvelope(UserSchema.array()) },
  },
  createUser: {
    id: "createUser",
    method: "POST",
    path: "/api/admin/users",
    summary: "Create a user",
    tag: "Admin",
    permission: "users:manage",
    query: EmptyQuerySchema,
    body: UserCreateBodySchema,
    success: { status: 201, description: "The new user", schema: dataEnvelope(UserSchema) },
    errors: ["email_taken"],
    audit: {
      action: "user.create",
      target: ({ data }) => userTarget(field(data, "id"), data),
      detail: ({ body }) => ({ email: text(body.email), role: text(body.role) }),
    },
  },
  updateUser: {
    id: "updateUser",
    method: "PATCH",
    path: "/api/admin/users/{id}",
    summary:
      "Change a user's name, role, password or disabled flag; a role or password change, or disabling, ends his sessions, and a new password or disabling also revokes his API tokens unless revoke_tokens is false",
    tag: "Admin",
    permission: "users:manage",
    stepUp: true,
    params: UserIdParamsSchema,
    query: EmptyQuerySchema,
    body: UserUpdateBodySchema,
    success: { status: 200, description: "The updated user", schema: dataEnvelope(UserSchema) },
    notFound: "There is no user with id {id}.",
    errors: ["last_admin"],
    audit: {
      action: "user.update",
      target: ({ params, data }) => userTarget(params.id, data),
      detail: ({ body, data }) => {
        // A role set by hand on a single sign-on user is pinned without being asked (lib/auth/users.ts updateUser).
        const pinnedByRole =
          body.role_pinned === undefined &&
          typeof body.role === "string" &&
          field(data, "identity") &&
          field(data, "role_pinned") === true;
        return {
          changes: [...Object.keys(body), ...(pinnedByRole ? ["role_pinned"] : [])],
          ...(typeof body.role === "string" ? { role: body.role } : {}),
          ...(typeof body.disabled === "boolean" ? { disabled: body.disabled } : {}),
          ...(typeof body.role_pinned === "boolean"
            ? { role_pinned: body.role_pinned }
            : pinnedByRole
              ? { role_pinned: true }
              : {}),
        };
      },
    },
  },
  unlockUser: {
    id: "unlockUser",
    method: "POST",
    path: "/api/admin/users/{id}/unlock",
    summary:
      "Clear a user's failed sign-ins, from every address: nothing then slows or refuses his next sign-in (a password reset does it too)",
    tag: "Admin",
    permission: "users:manage",
    params: UserIdParamsSchema,
    query: EmptyQuerySchema,
    success: { status: 200, description: "The user", schema: dataEnvelope(UserSchema) },
    notFound: "There is no user with id {id}.",
    audit: {
      action: "user.unlock",
      target: ({ params, data }) => userTarget(params.id, data),
    },
  },
  listEveryToken: {
    id: "listEveryToken",
    method: "GET",
    path: "/api/admin/tokens",
    summary:
      "Every person's API tokens (or one person's: user_id), newest first; never their secrets. Revoke one with DELETE /api/tokens/{id}",
    tag: "Admin",
    permission: "users:manage",
    sessionOnly: true,
    query: TokenListQuerySchema,
    success: { status: 200, description: "The tokens", schema: dataEnvelope(TokenSchema.array()) },
  },
  listWebhooks: {
    id: "listWebhooks",
    method: "GET",
    path: "/api/admin/webhooks",
    summary: "Every webhook endpoint, oldest first; never a secret",
    tag: "Admin",
    permission: "webhooks:manage",
    query: EmptyQuerySchema,
    success: { status: 200, description: "The endpoints", schema: dataEnvelope(WebhookSchema.array()) },
  },
  createWebhook: {
    id: "createWebhook",
    method: "POST",
    path: "/api/admin/webhooks",
    summary:
      "Add an endpoint: an https URL whose every address is public (checked now and at each delivery) and the events it wants. The answer carries its signing secret (whsec_…), this once",
    tag: "Admin",
    permission: "webhooks:manage",
    stepUp: true,
    query: EmptyQuerySchema,
    body: WebhookCreateBodySchema,
    success: {
      status: 201,
      description: "The endpoint with its secret (shown once)",
      schema: dataEnvelope(WebhookWithSecretSchema),
    },
    audit: {
      action: "webhook.create",
      target: ({ data }) => webhookTarget(field(data, "id"), data),
      detail: ({ body }) => ({ events: ((body.events as string[] | undefined) ?? []).map(String) }),
    },
  },
  updateWebhook: {
    id: "updateWebhook",
    method: "PATCH",
    path: "/api/admin/webhooks/{id}",
    summary:
      "Change an endpoint's URL, events or description; pause it (enabled: false) or start it again (enabled: true, also after a disable for failing); or rotate its secret (rotate_secret: true: the new one is answered once, and the old one signs too for 24 hours)",
    tag: "Admin",
    permission: "webhooks:manage",
    params: WebhookIdParamsSchema,
    query: EmptyQuerySchema,
    body: WebhookUpdateBodySchema,
    success: {
      status: 200,
      description: "The endpoint (with `secret` when it was rotated)",
      schema: dataEnvelope(WebhookSchema.extend({ secret: WebhookWithSecretSchema.shape.secret.optional() })),
    },
    notFound: "There is no webhook endpoint with id {id}.",
    audit: {
      action: "webhook.update",
      target: ({ params, data }) => webhookTarget(params.id, data),
      detail: ({ body }) => ({ changes: Object.keys(body) }),
    },
  },
  deleteWebhook: {
    id: "deleteWebhook",
    method: "DELETE",
    path: "/api/admin/webhooks/{id}",
    summary: "Remove an endpoint, with its deliveries and their log",
    tag: "Admin",
    permission: "webhooks:manage",
    params: WebhookIdParamsSchema,
    query: EmptyQuerySchema,
    success: { status: 204, description: "Removed" },
    notFound: "There is no webhook endpoint with id {id}.",
    audit: { action: "webhook.delete", target: ({ params }) => webhookTarget(params.id) },
  },
  listWebhookDeliveries: {
    id: "listWebhookDeliveries",
    method: "GET",
    path: "/api/admin/webhooks/{id}/deliveries",
    summary:
      "The endpoint's delivery log: its latest 50 deliveries, newest first, each with every attempt (status, time, the answer's first characters)",
    tag: "Admin",
    permission: "webhooks:manage",
    params: WebhookIdParamsSchema,
    query: EmptyQuerySchema,
    success: { status: 200, description: "The deliveries", schema: dataEnvelope(WebhookDeliverySchema.array()) },
    notFound: "There is no webhook endpoint with id {id}.",
  },
  redeliverWebhook: {
    id: "redeliverWebhook",
    method: "POST",
    path: "/api/admin/webhooks/{id}/deliveries/{delivery}/resend",
    summary: "Send a delivery again now: the same webhook-id and body, a new attempt in its log",
    tag: "Admin",
    permission: "webhooks:manage",
    params: WebhookDeliveryParamsSchema,
    query: EmptyQuerySchema,
    success: {
      status: 202,
      description: "Queued: it is sent within moments",
      schema: dataEnvelope(WebhookDeliverySchema),
    },
    notFound: "There is no delivery {delivery} for webhook endpoint {id}.",
    audit: {
      action: "webhook.redeliver",
      target: ({ params }) => webhookTarget(params.id),
      detail: ({ params }) => ({ delivery: text(params.delivery) }),
    },
  },
  testWebhook: {
    id: "testWebhook",
    method: "POST",
    path: "/api/admin/webhooks/{id}/test",
    summary:
      "Send the endpoint a test event (webhook.test), signed and retried like every event; it appears in its delivery log",
    tag: "Admin",
    permission: "webhooks:manage",
    params: WebhookIdParamsSchema,
    query: EmptyQuerySchema,
    success: {
      status: 202,
      description: "Queued: it is sent within moments",
      schema: dataEnvelope(WebhookDeliverySchema),
    },
    notFound: "There is no webhook endpoint with id {id}.",
    audit: {
      action: "webhook.test",
      target: ({ params }) => webhookTarget(params.id),
      detail: ({ data }) => ({ delivery: text(field(data, "id")) }),
    },
  },
  listAudit: {
    id: "listAudit",
    method: "GET",
    path: "/api/admin/audit",
    summary: "The audit log, newest first, filtered and paginated",
    tag: "Admin",
    permission: "audit:read",
    query: AuditListQuerySchema,
    success: { status: 200, description: "One page of audit rows", schema: pageEnvelope(AuditRecordSchema) },
  },
  exportAudit: {
    id: "exportAudit",
    method: "GET",
    path: "/api/admin/audit/export",
    summary:
      "The audit log for a range (from, to; the same filters as the list), in the order written, streamed whatever its size: format=ndjson, one row per line as the list shows it, or format=csv. The export itself is audited (audit.export)",
    tag: "Admin",
    permission: "audit:read",
    query: AuditExportQuerySchema,
    success: {
      status: 200,
      description: "The rows, as a download (Content-Disposition: attachment)",
      contentType: ["application/x-ndjson", "text/csv"],
    },
  },
  listUpstreamKeys: {
    id: "listUpstreamKeys",
    method: "GET",
    path: "/api/admin/upstream-keys",
    summary:
      "Each area's upstream connection: where its key is kept (environment or portal), the key's fingerprint and last 4 characters (never the key), the stored keys, and its health",
    tag: "Admin",
    permission: "upstream:manage",
    query: EmptyQuerySchema,
    success: { status: 200, description: "Both areas", schema: dataEnvelope(UpstreamAreaStatusSchema.array()) },
  },
  testUpstreamKey: {
    id: "testUpstreamKey",
    method: "POST",
    path: "/api/admin/upstream-keys/{area}/test",
    summary:
      "Test a key against the upstream (one read) without saving it; a key the upstream refuses is a 400 with its words in fields.key",
    tag: "Admin",
    permission: "upstream:manage",
    params: UpstreamAreaParamsSchema,
    query: EmptyQuerySchema,
    body: UpstreamKeyBodySchema,
    success: { status: 200, description: "The upstream accepted the key", schema: dataEnvelope(KeyTestResultSchema) },
    notFound: "The area is not configured on this Gatehouse.",
  },
  setUpstreamKey: {
    id: "setUpstreamKey",
    method: "POST",
    path: "/api/admin/upstream-keys/{area}",
    summary:
      "Rotate the area's key: tested against the upstream first, saved sealed only if it works; every instance switches within a few seconds, and the old key is kept, disabled, until removed",
    tag: "Admin",
    permission: "upstream:manage",
    stepUp: true,
    params: UpstreamAreaParamsSchema,
    query: EmptyQuerySchema,
    body: UpstreamKeyBodySchema,
    success: { status: 201, ...keyChangeAnswer },
    notFound: "The area is not configured on this Gatehouse.",
    errors: ["key_set_in_environment", "key_encryption_off"],
    audit: keyChangeAudit("upstream.key_set"),
  },
  restoreUpstreamKey: {
    id: "restoreUpstreamKey",
    method: "POST",
    path: "/api/admin/upstream-keys/{area}/{id}/restore",
    summary: "Undo a rotation: make a stored, disabled key the area's key again (tested against the upstream first)",
    ...storedKeyOperation,
    stepUp: true,
    errors: ["key_set_in_environment", "key_encryption_off"],
    audit: keyChangeAudit("upstream.key_restored"),
  },
  removeUpstreamKey: {
    id: "removeUpstreamKey",
    method: "DELETE",
    path: "/api/admin/upstream-keys/{area}/{id}",
    summary: "Remove a stored key that is not in use (the key in use is refused: 409 key_in_use)",
    ...storedKeyOperation,
    errors: ["key_in_use"],
    audit: keyChangeAudit("upstream.key_removed"),
  },
  // Help Scout's secret signs requests between Gatehouse and another system, as a webhook's does: webhooks:manage.
  getHelpdeskSettings: {
    id: "getHelpdeskSettings",
    method: "GET",
    path: "/api/admin/helpdesk",
    summary:
      "The helpdesks' settings: whether Help Scout's secret is set (when, by whom; never the secret), the Callback URL to give Help Scout, and each helpdesk's last checks",
    tag: "Admin",
    permission: "webhooks:manage",
    sessionOnly: true,
    query: EmptyQuerySchema,
    success: { status: 200, description: "The settings", schema: dataEnvelope(HelpdeskSettingsSchema) },
  },
  makeHelpScoutSecret: {
    id: "makeHelpScoutSecret",
    method: "POST",
    path: "/api/admin/helpdesk/helpscout-secret",
    summary:
      "Make Help Scout's secret, or rotate it: a new random one replaces any before it (whose signatures are refused from then on). The answer carries it, this once; paste it into Help Scout's app",
    tag: "Admin",
    permission: "webhooks:manage",
    sessionOnly: true,
    query: EmptyQuerySchema,
    success: {
      status: 201,
      description: "The secret (shown once) and its state",
      schema: dataEnvelope(HelpScoutSecretSchema),
    },
    audit: {
      action: "helpdesk.secret_set",
      detail: ({ data }) => ({ helpdesk: "helpscout", rotated: field(data, "rotated") === true }),
    },
  },
  removeHelpScoutSecret: {
    id: "removeHelpScoutSecret",
    method: "DELETE",
    path: "/api/admin/helpdesk/helpscout-secret",
    summary: "Remove Help Scout's secret: its requests are refused (401) until a new one is made",
    tag: "Admin",
    permission: "webhooks:manage",
    sessionOnly: true,
    query: EmptyQuerySchema,
    success: { status: 204, description: "Removed" },
    notFound: "Help Scout's secret is not set.",
    audit: { action: "helpdesk.secret_removed", detail: () => ({ helpdesk: "helpscout" }) },
  },
} as const satisfies Record<string, OperationSpec>;
