// A purchase over its life (issue 33), what people set and read of it: admins save the lifecycle's settings (the
// sweep, the support notice, the shared-code thresholds; saving settings that un-cover items forgets their codes'
// seals at once), set each item's renewal link and start a sweep by hand; support people list the purchases whose
// support ends soon.
import { dataEnvelope, EmptyQuerySchema } from "@/lib/contract/common";
import { PurchaseLifecycleSettingsSchema } from "@/lib/contract/purchase-lifecycle";
import {
  ItemIdParamsSchema,
  PurchaseLifecycleSavedSchema,
  PurchaseLifecycleStateSchema,
  RenewalLinkAnswerSchema,
  RenewalLinkBodySchema,
  SupportExpiringPageSchema,
  SupportExpiringQuerySchema,
  SweepStartedSchema,
} from "@/lib/contract/purchase-sweep";

import { field, text } from "./targets";
import type { OperationSpec } from "./types";

export const purchaseLifecycleOperations = {
  listSupportExpiring: {
    id: "listSupportExpiring",
    method: "GET",
    path: "/api/purchases/support-expiring",
    summary:
      "The valid purchases Gatehouse knows whose support ends within `days` (the admin's notice period unless given), soonest first, by their codes' last 4 characters: item, licence, support end, days left, when the item API last said the code was valid, and the item's renewal link",
    tag: "Purchases",
    permission: "purchases:validate",
    query: SupportExpiringQuerySchema,
    success: { status: 200, description: "One page of purchases", schema: SupportExpiringPageSchema },
  },
  getPurchaseLifecycle: {
    id: "getPurchaseLifecycle",
    method: "GET",
    path: "/api/admin/purchase-lifecycle",
    summary:
      "The purchase lifecycle's settings (the sweep, the support notice, the shared-code thresholds), the codes enrolled in the sweep and due, the codes waiting for a re-check since an outage, the sweep's budget, and every item's renewal link",
    tag: "Admin",
    permission: "purchases:manage",
    query: EmptyQuerySchema,
    success: { status: 200, description: "The settings and state", schema: dataEnvelope(PurchaseLifecycleStateSchema) },
  },
  savePurchaseLifecycle: {
    id: "savePurchaseLifecycle",
    method: "PUT",
    path: "/api/admin/purchase-lifecycle",
    summary:
      "Save the purchase lifecycle's settings, whole. Codes whose item the sweep no longer covers (the sweep turned off, an item left out) are forgotten at once: their seals removed, their hashes kept. A newly covered item's codes are enrolled at their next check",
    tag: "Admin",
    permission: "purchases:manage",
    query: EmptyQuerySchema,
    body: PurchaseLifecycleSettingsSchema,
    success: {
      status: 200,
      description: "The settings and state, with the codes forgotten",
      schema: dataEnvelope(PurchaseLifecycleSavedSchema),
    },
    audit: {
      action: "purchase.lifecycle_update",
      detail: ({ body, data }) => {
        const sweep = field(body, "sweep");
        const items = field(sweep, "items");
        return {
          sweep_enabled: field(sweep, "enabled") === true,
          sweep_items: Array.isArray(items) ? items.map(String) : text(items),
          every_days: Number(field(sweep, "every_days") ?? 0),
          support_expiring_days: Number(field(body, "support_expiring_days") ?? 0),
          forgotten: Number(field(data, "forgotten") ?? 0),
        };
      },
    },
  },
  runPurchaseSweep: {
    id: "runPurchaseSweep",
    method: "POST",
    path: "/api/admin/purchase-lifecycle/sweep",
    summary:
      "Run the sweep now, as a job after any tick under way: the codes waiting since an outage, then (when enabled) the enrolled codes due, within the same budget, then the support notices due. Accepted at once; its checks appear in the history (source sweep)",
    tag: "Admin",
    permission: "purchases:manage",
    query: EmptyQuerySchema,
    success: { status: 202, description: "Queued", schema: dataEnvelope(SweepStartedSchema) },
    audit: { action: "purchase.sweep_run" },
  },
  setRenewalLink: {
    id: "setRenewalLink",
    method: "PUT",
    path: "/api/admin/purchase-lifecycle/items/{id}",
    summary:
      "Set an item's renewal link (https), shown in the verdict and the helpdesk card where its support has ended or ends soon; null removes it",
    tag: "Admin",
    permission: "purchases:manage",
    params: ItemIdParamsSchema,
    query: EmptyQuerySchema,
    body: RenewalLinkBodySchema,
    success: { status: 200, description: "The item's link", schema: dataEnvelope(RenewalLinkAnswerSchema) },
    audit: {
      action: "purchase.renewal_update",
      detail: ({ params, body }) => ({ item_id: Number(params.id), renewal_url: text(field(body, "renewal_url")) }),
    },
  },
} as const satisfies Record<string, OperationSpec>;
