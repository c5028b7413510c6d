// Webhook endpoints: the only module that writes the webhook_endpoints table. A URL is checked when it is saved
// (https, and every address it resolves to public unless WEBHOOK_ALLOW_PRIVATE=1, or the demo's own receiver) and
// again at each delivery.
import "server-only";

import { randomUUID } from "node:crypto";

import { hasBrand } from "@/lib/brand";
import type { WebhookCreateBody, WebhookOutput, WebhookUpdateBody } from "@/lib/contract/webhooks";
import { isOneOf, WEBHOOK_EVENTS, type WebhookEventType } from "@/lib/contract/values";
import type { Db } from "@/lib/db";
import type { WebhookEndpointRow } from "@/lib/db/schema";
import { logEvent } from "@/lib/log";

import { generateSigningSecret, signingSecretSealer } from "./seal";
import { resolveTarget, type TargetRules } from "./target";

/** After a rotation, the old secret signs too for this long, so receivers can switch without losing a delivery. */
export const ROTATION_OVERLAP_MS = 24 * 3_600_000;

const WEBHOOK_ERROR: unique symbol = Symbol.for("gatehouse.WebhookError");

/** A refusal a person can act on: `invalid` names its field (400), `not_found` is 404. */
export class WebhookError extends Error {
  readonly [WEBHOOK_ERROR] = true;
  override name = "WebhookError";
  constructor(
    readonly code: "invalid" | "not_found",
    message: string,
    readonly field: string | null = null,
  ) {
    super(message);
  }
}

export function isWebhookError(error: unknown): error is WebhookError {
  return hasBrand(error, WEBHOOK_ERROR);
}

export interface WebhookSettings extends TargetRules {
  /** The root of the secrets' seal (PURCHASE_CODE_HASH_KEY). */
  sealKey: string;
}

export interface Endpoint {
  id: string;
  url: string;
  description: string | null;
  events: WebhookEventType[];
  enabled: boolean;
  disabledReason: string | null;
  disabledAt: string | null;
  failingSince: string | null;
  previousSecretUntil: string | null;
  createdAt: string;
  updatedAt: string;
}

function toEndpoint(row: WebhookEndpointRow): Endpoint {
  const events: unknown = JSON.parse(row.events);
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: Array.isArray(events) ? events.filter((e): e is WebhookEventType => isOneOf(WEBHOOK_EVENTS, e)) : [],
    enabled: Number(row.disabled) === 0,
    disabledReason: row.disabled_reason,
    disabledAt: row.disabled_at,
    failingSince: row.failing_since,
    previousSecretUntil: row.previous_secret_until,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function webhookOutput(endpoint: Endpoint, now = new Date()): WebhookOutput {
  const overlap =
    endpoint.previousSecretUntil !== null && endpoint.previousSecretUntil > now.toISOString()
      ? endpoint.previousSecretUntil
      : null;
  return {
    id: endpoint.id,
    url: endpoint.url,
    description: endpoint.description,
    events: endpoint.events,
    enabled: endpoint.enabled,
    disabled_reason: endpoint.disabledReason,
    disabled_at: endpoint.disabledAt,
    failing_since: endpoint.failingSince,
    previous_secret_until: overlap,
    created_at: endpoint.createdAt,
    updated_at: endpoint.updatedAt,
  };
}

async function checkUrl(url: string, settings: WebhookSettings): Promise<void> {
  const checked = await resolveTarget(url, settings);
  if (checked.ok) return;
  // The person is told what to do with the URL; the operator's switch for development belongs in the log.
  if (!settings.allowPrivate)
    logEvent("info", "webhook_url_refused", {
      reason: checked.reason,
      hint: "WEBHOOK_ALLOW_PRIVATE=1 allows http:// and private addresses, for development and tests only",
    });
  throw new WebhookError("invalid", `url ${checked.reason}`, "url");
}

export async function createEndpoint(
  db: Db,
  body: WebhookCreateBody,
  settings: WebhookSettings,
  createdBy: string | null,
  now = new Date(),
): Promise<{ endpoint: Endpoint; secret: string }> {
  await checkUrl(body.url, settings);
  const secret = generateSigningSecret();
  const at = now.toISOString();
  const row = await db
    .insertInto("webhook_endpoints")
    .values({
      id: randomUUID(),
      url: body.url,
      description: body.description ?? null,
      events: JSON.stringify(body.events),
      secret_sealed: signingSecretSealer.seal(secret, settings.sealKey),
      previous_secret_sealed: null,
      previous_secret_until: null,
      disabled: 0,
      disabled_reason: null,
      disabled_at: null,
      failing_since: null,
      created_at: at,
      updated_at: at,
      created_by: createdBy,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return { endpoint: toEndpoint(row), secret };
}

export async function listEndpoints(db: Db): Promise<Endpoint[]> {
  return (
    await db.selectFrom("webhook_endpoints").selectAll().orderBy("created_at", "asc").orderBy("id").execute()
  ).map(toEndpoint);
}

export async function getEndpoint(db: Db, id: string): Promise<Endpoint> {
  const row = await db.selectFrom("webhook_endpoints").selectAll().where("id", "=", id).executeTakeFirst();
  if (!row) throw new WebhookError("not_found", `There is no webhook endpoint with id ${id}.`);
  return toEndpoint(row);
}

/** Changes an endpoint; `secret` is the new one when the change rotated it (answered once). */
export async function updateEndpoint(
  db: Db,
  id: string,
  patch: WebhookUpdateBody,
  settings: WebhookSettings,
  now = new Date(),
): Promise<{ endpoint: Endpoint; secret: string | null }> {
  const current = await db.selectFrom("webhook_endpoints").selectAll().where("id", "=", id).executeTakeFirst();
  if (!current) throw new WebhookError("not_found", `There is no webhook endpoint with id ${id}.`);
  if (patch.url !== undefined) await checkUrl(patch.url, settings);
  const secret = patch.rotate_secret ? generateSigningSecret() : null;
  const at = now.toISOString();
  const row = await db
    .updateTable("webhook_endpoints")
    .set({
      ...(patch.url !== undefined && { url: patch.url }),
      ...(patch.events !== undefined && { events: JSON.stringify(patch.events) }),
      ...(patch.description !== undefined && { description: patch.description }),
      ...(patch.enabled === true && { disabled: 0, disabled_reason: null, disabled_at: null, failing_since: null }),
      ...(patch.enabled === false && { disabled: 1, disabled_reason: "Paused by an admin.", disabled_at: at }),
      ...(secret !== null && {
        secret_sealed: signingSecretSealer.seal(secret, settings.sealKey),
        previous_secret_sealed: current.secret_sealed,
        previous_secret_until: new Date(now.getTime() + ROTATION_OVERLAP_MS).toISOString(),
      }),
      updated_at: at,
    })
    .where("id", "=", id)
    .returningAll()
    .executeTakeFirstOrThrow();
  return { endpoint: toEndpoint(row), secret };
}

/** Removes the endpoint with its deliveries and their log. */
export async function deleteEndpoint(db: Db, id: string): Promise<Endpoint> {
  const endpoint = await getEndpoint(db, id);
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom("webhook_attempts").where("endpoint_id", "=", id).execute();
    await trx.deleteFrom("webhook_deliveries").where("endpoint_id", "=", id).execute();
    await trx.deleteFrom("webhook_endpoints").where("id", "=", id).execute();
  });
  return endpoint;
}

/** The secrets that sign now: the current one, and the previous one during a rotation's overlap. */
export async function signingSecrets(db: Db, id: string, sealKey: string, now = new Date()): Promise<string[]> {
  const row = await db
    .selectFrom("webhook_endpoints")
    .select(["secret_sealed", "previous_secret_sealed", "previous_secret_until"])
    .where("id", "=", id)
    .executeTakeFirst();
  if (!row) return [];
  const secrets = [signingSecretSealer.open(row.secret_sealed, sealKey)];
  if (row.previous_secret_sealed && row.previous_secret_until && row.previous_secret_until > now.toISOString())
    secrets.push(signingSecretSealer.open(row.previous_secret_sealed, sealKey));
  return secrets.filter((s): s is string => s !== null);
}
