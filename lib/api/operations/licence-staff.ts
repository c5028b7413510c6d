// Licence activations (issue 34), the staff's and admins' side: support staff list a code's activations (the code
// in the body, never in a URL) and reset one or all of them with a reason (audited; each activation released is
// told as licence.deactivated by the handler, as the copies' own deactivations and refunds are: lib/api/licence-staff.ts);
// admins read every item's policy with the published public keys, and save an item's policy. The installed copies'
// own API (activate, validate, deactivate) is in ./licences.ts.
import { dataEnvelope, EmptyQuerySchema } from "@/lib/contract/common";
import { LicencesAdminSchema } from "@/lib/contract/licence-staff";
import {
  ActivationIdParamsSchema,
  ActivationResetBodySchema,
  CodeActivationSchema,
  CodeActivationsSchema,
  LicenceLookupBodySchema,
  LicencePolicyBodySchema,
  LicencePolicySchema,
  LicenceResetBodySchema,
  ResetAnswerSchema,
} from "@/lib/contract/licences";
import { ItemIdParamsSchema } from "@/lib/contract/purchase-sweep";

import { field, text } from "./targets";
import type { OperationSpec } from "./types";

/** A reason as the audit row keeps it (the body's, already trimmed and at most 500 characters by its schema). */
const reasonOf = (body: Record<string, unknown>) => text(field(body, "reason"));

export const licenceStaffOperations = {
  searchLicenceActivations: {
    id: "searchLicenceActivations",
    method: "POST",
    path: "/api/licences/activations/search",
    summary:
      "A purchase code's licence activations, of every item (found through the code's keyed hash, the code cleaned as a check cleans it): each installed copy's domain or id, name, first and last seen, whether it counts against the limit, and whether it is active. The code travels in the body, never in a URL",
    tag: "Licences",
    permission: "purchases:validate",
    query: EmptyQuerySchema,
    body: LicenceLookupBodySchema,
    success: {
      status: 200,
      description: "The code's activations, active first",
      schema: dataEnvelope(CodeActivationsSchema),
    },
  },
  resetLicenceActivation: {
    id: "resetLicenceActivation",
    method: "POST",
    path: "/api/licences/activations/{id}/reset",
    summary:
      "Reset one activation (a buyer moved his site): it is deactivated now, frees its place under the limit, and its copy is told so at its next validation. The reason is kept in the audit log; licence.deactivated is sent. 404 for an id that does not exist, 409 for an activation already deactivated",
    tag: "Licences",
    permission: "purchases:validate",
    params: ActivationIdParamsSchema,
    query: EmptyQuerySchema,
    body: ActivationResetBodySchema,
    errors: ["not_found", "conflict"],
    success: { status: 200, description: "The activation as it is now", schema: dataEnvelope(CodeActivationSchema) },
    audit: {
      action: "licence.reset",
      detail: ({ params, body, data }) => {
        const instance = field(data, "instance");
        const item = field(data, "item_id");
        return {
          activation_id: text(params.id),
          reason: reasonOf(body),
          ...(typeof item === "number" ? { item_id: item } : {}),
          ...(instance ? { instance: text(field(instance, "value")) } : {}),
        };
      },
    },
  },
  resetLicenceActivations: {
    id: "resetLicenceActivations",
    method: "POST",
    path: "/api/licences/reset",
    summary:
      "Reset every active activation of a purchase code (of one item with item_id, or of all): each is deactivated now and told as its own licence.deactivated. The reason is kept in the audit log. A code with none active answers reset: 0",
    tag: "Licences",
    permission: "purchases:validate",
    query: EmptyQuerySchema,
    body: LicenceResetBodySchema,
    success: { status: 200, description: "How many activations were reset", schema: dataEnvelope(ResetAnswerSchema) },
    audit: {
      action: "licence.reset",
      target: ({ body }) =>
        typeof body.purchase_code === "string" ? { type: "purchase_code", code: body.purchase_code } : null,
      detail: ({ body, data }) => {
        const item = field(body, "item_id");
        const reset = field(data, "reset");
        return {
          reason: reasonOf(body),
          item_id: typeof item === "number" ? item : null,
          ...(typeof reset === "number" ? { reset } : {}),
        };
      },
    },
  },
  getLicencesAdmin: {
    id: "getLicencesAdmin",
    method: "GET",
    path: "/api/admin/licences",
    summary:
      "Every item of the seller with its licence policy (the defaults, off, until one is saved), the public keys that verify the licence API's answers (base64 and PEM) and the well-known URL they are published at",
    tag: "Licences",
    permission: "licences:manage",
    area: "items",
    query: EmptyQuerySchema,
    success: {
      status: 200,
      description: "The items, their policies and the keys",
      schema: dataEnvelope(LicencesAdminSchema),
    },
  },
  saveLicencePolicy: {
    id: "saveLicencePolicy",
    method: "PUT",
    path: "/api/admin/licences/items/{id}",
    summary:
      "Save an item's licence policy, whole: whether the licence API answers for it, the activations each licence type allows, the domains that never count (a name, *.name or name.*), and whether a refunded purchase releases its activations. Applies to the next activation; activations already made are kept",
    tag: "Licences",
    permission: "licences:manage",
    params: ItemIdParamsSchema,
    query: EmptyQuerySchema,
    body: LicencePolicyBodySchema,
    success: { status: 200, description: "The item's policy as saved", schema: dataEnvelope(LicencePolicySchema) },
    audit: {
      action: "licence.policy_update",
      detail: ({ params, body }) => {
        const limits = field(body, "limits");
        const neverCount = field(body, "never_count");
        return {
          item_id: Number(params.id),
          enabled: field(body, "enabled") === true,
          regular: Number(field(limits, "regular") ?? 0),
          extended: Number(field(limits, "extended") ?? 0),
          never_count: Array.isArray(neverCount) ? neverCount.map((pattern) => String(pattern).slice(0, 100)) : [],
          revoked_deactivates: field(body, "revoked_deactivates") === true,
        };
      },
    },
  },
} as const satisfies Record<string, OperationSpec>;
