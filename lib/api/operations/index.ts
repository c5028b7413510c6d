// Every operation of the portal API in one table: method, path, permission, upstream area, input schemas and
// the success answer. Route handlers are built from these entries (lib/api/route.ts) and /api/openapi.json is
// generated from them (lib/api/openapi.ts), so the contract lives here once. Each resource keeps its entries in a
// file of this folder, in the order of the document's groups (TAGS); what an entry is: ./types.ts. A new operation
// is one entry in its resource's file (its schemas in lib/contract) and one route file under app/api:
// docs/architecture.md#adding-an-operation.
import { accountOperations } from "./accounts";
import { adminOperations } from "./admin";
import { alertOperations } from "./alerts";
import { factorOperations } from "./factors";
import { totpOperations } from "./factors-totp";
import { itemOperations } from "./items";
import { licenceStaffOperations } from "./licence-staff";
import { licenceOperations } from "./licences";
import { metaOperations } from "./meta";
import { notificationOperations } from "./notifications";
import { notificationSubscriptionOperations } from "./notification-subscriptions";
import { passkeyOperations } from "./passkeys";
import { projectOperations } from "./projects";
import { helpdeskOperations } from "./helpdesk";
import { purchaseLifecycleOperations } from "./purchase-lifecycle";
import { purchaseOperations } from "./purchases";
import { reportOperations } from "./reports";
import { scheduleOperations } from "./schedules";
import { stepUpOperations } from "./step-up";
import { tokenOperations } from "./tokens";
import { trendOperations } from "./trends";
import type { OperationSpec } from "./types";

export { TAGS } from "./types";
export type { AuditFacts, AuditTargetSpec, OperationEvent, OperationSpec } from "./types";

export const operations = {
  ...reportOperations,
  ...projectOperations,
  ...trendOperations,
  ...scheduleOperations,
  ...alertOperations,
  ...itemOperations,
  ...purchaseOperations,
  ...purchaseLifecycleOperations,
  ...helpdeskOperations,
  ...licenceOperations,
  ...licenceStaffOperations,
  ...accountOperations,
  ...factorOperations,
  ...totpOperations,
  ...passkeyOperations,
  ...stepUpOperations,
  ...tokenOperations,
  ...notificationSubscriptionOperations,
  ...adminOperations,
  ...notificationOperations,
  ...metaOperations,
} as const satisfies Record<string, OperationSpec>;

export type OperationName = keyof typeof operations;
