// The public licence API (issue 34): what an installed copy of the seller's software calls with the buyer's
// purchase code (no session, no token: the code is the buyer's secret), and the key that verifies its answers.
// Every answer is signed (`signed`): Gatehouse-Signature over the body's bytes. What staff and admins do with
// activations is in ./licence-staff.ts.
import { dataEnvelope, EmptyQuerySchema } from "@/lib/contract/common";
import {
  LicenceAnswerSchema,
  LicenceKeysSchema,
  LicenceRequestSchema,
  LICENCE_KEYS_PATH,
} from "@/lib/contract/licences";

import type { OperationSpec } from "./types";

const SIGNED =
  "The answer, error or not, is signed: Gatehouse-Signature is the Ed25519 signature (base64) of the body's bytes by the key Gatehouse-Signature-Key names (" +
  LICENCE_KEYS_PATH +
  "); docs/licences.md verifies one in PHP and JavaScript";

const licenceOperation = {
  tag: "Licences",
  permission: "public",
  area: "items",
  query: EmptyQuerySchema,
  body: LicenceRequestSchema,
  signed: true,
} as const;

export const licenceOperations = {
  activateLicence: {
    ...licenceOperation,
    id: "activateLicence",
    method: "POST",
    path: "/api/licences/activate",
    summary: `Activate an installed copy (instance: its domain, or an id) with the buyer's purchase code, for an item whose licence API an admin turned on. The same instance again is the same activation; a domain the item's policy never counts (localhost, *.test, staging.*) takes none of the licence's activations. 403 activation_limit_reached names the instances in use and how to free one; 404 when the code is not a valid purchase of the item (or was refunded); 429 past the per-code, per-address or per-item limits; 503 with Retry-After when the item API cannot be asked now and the purchase was never seen valid. ${SIGNED}`,
    success: { status: 200, description: "The licence and this activation", schema: dataEnvelope(LicenceAnswerSchema) },
    errors: ["activation_limit_reached", "not_found", "rate_limited", "server_busy"],
  },
  validateLicence: {
    ...licenceOperation,
    id: "validateLicence",
    method: "POST",
    path: "/api/licences/validate",
    summary: `Whether this instance is still active and the purchase still valid (active, licence.status). While this API's share of the item API's budget is spent, or the item API is down, the purchase's last verdict answers (verdict.fresh: false). ${SIGNED}`,
    success: {
      status: 200,
      description: "The licence and this instance's activation",
      schema: dataEnvelope(LicenceAnswerSchema),
    },
    errors: ["not_found", "rate_limited", "server_busy"],
  },
  deactivateLicence: {
    ...licenceOperation,
    id: "deactivateLicence",
    method: "POST",
    path: "/api/licences/deactivate",
    summary: `Free this instance's activation (the copy is uninstalled or moved), so that another may take it; the item API is not asked. 404 when the instance holds no active activation of the code. ${SIGNED}`,
    success: {
      status: 200,
      description: "The licence, and the activation as it is now",
      schema: dataEnvelope(LicenceAnswerSchema),
    },
    errors: ["not_found", "rate_limited"],
  },
  licenceKeys: {
    id: "licenceKeys",
    method: "GET",
    path: "/api/licences/keys",
    summary: `The public keys that verify the licence API's answers (also at ${LICENCE_KEYS_PATH}): the raw key in base64 for PHP's sodium and WebCrypto, and as PEM`,
    tag: "Licences",
    permission: "public",
    query: EmptyQuerySchema,
    success: { status: 200, description: "The keys, oldest first", schema: LicenceKeysSchema },
  },
} as const satisfies Record<string, OperationSpec>;
