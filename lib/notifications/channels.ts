// Team channels (issue 35): the only module that writes notification_channels. A Slack or Teams channel is an
// incoming webhook whose URL is the secret (anyone holding it can post): it is checked like a webhook endpoint's
// (lib/webhooks/target.ts: https, every address public unless WEBHOOK_ALLOW_PRIVATE=1) when saved and again at
// each send, sealed at rest, and never answered again (`target_hint`: host and last 4 characters). An e-mail
// channel is a team list's address or addresses.
import "server-only";

import { randomUUID } from "node:crypto";

import { hasBrand } from "@/lib/brand";
import type { ChannelCreateBody, ChannelOutput, ChannelUpdateBody } from "@/lib/contract/notifications";
import { isOneOf, NOTIFICATION_CHANNEL_KINDS, type NotificationChannelKind } from "@/lib/contract/values";
import type { Selectable } from "kysely";

import type { Db } from "@/lib/db";
import type { NotificationChannelsTable } from "@/lib/db/schema";
import { sealer } from "@/lib/seal";
import { resolveTarget, type TargetRules } from "@/lib/webhooks/target";

import { digestDueNow } from "./digest-due";
import { forgetSubscribers } from "./subscriptions";

const NOTIFICATION_ERROR: unique symbol = Symbol.for("gatehouse.NotificationError");

/** A refusal a person can act on: `invalid` names its field (400) or none, `not_found` is 404. */
export class NotificationError extends Error {
  readonly [NOTIFICATION_ERROR] = true;
  override name = "NotificationError";
  constructor(
    readonly code: "invalid" | "not_found",
    message: string,
    readonly field: string | null = null,
  ) {
    super(message);
  }
}

export function isNotificationError(error: unknown): error is NotificationError {
  return hasBrand(error, NOTIFICATION_ERROR);
}

/** What sending needs from the configuration: the private-address rules of webhooks, the seal's key, the origin. */
export interface NotificationSettings extends TargetRules {
  /** The root of the seals (PURCHASE_CODE_HASH_KEY). */
  sealKey: string;
  /** PUBLIC_ORIGIN: links are absolute with it; null: they are paths. */
  publicOrigin: string | null;
}

/** Seals channels' targets (a webhook URL is a credential); one that no longer opens reads as null. */
const targetSealer = sealer("gatehouse notification channel seal");

/** At most this many addresses on one e-mail channel. */
const MAX_ADDRESSES = 20;
const ADDRESS = /^[^\s@,;<>"]+@[^\s@,;<>"]+\.[^\s@,;<>"]+$/;

/** Hosts of Microsoft Teams' incoming webhooks: Workflows (Power Automate) and the older Office 365 connectors. */
const TEAMS_HOSTS = [/\.webhook\.office\.com$/, /\.logic\.azure\.com$/, /(^|\.)powerplatform\.com$/, /\.office\.com$/];

export interface Channel {
  id: string;
  kind: NotificationChannelKind;
  name: string;
  targetHint: string;
  timeZone: string;
  digestEnabled: boolean;
  digestDay: number;
  digestHour: number;
  enabled: boolean;
  createdAt: string;
  updatedAt: string;
}

function toChannel(row: Selectable<NotificationChannelsTable>): Channel {
  return {
    id: row.id,
    kind: isOneOf(NOTIFICATION_CHANNEL_KINDS, row.kind) ? row.kind : "slack",
    name: row.name,
    targetHint: row.target_hint,
    timeZone: row.time_zone,
    digestEnabled: Number(row.digest_enabled) === 1,
    digestDay: Number(row.digest_day),
    digestHour: Number(row.digest_hour),
    enabled: Number(row.disabled) === 0,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** Why nothing can be sent to the channel now, or null. */
export function unsendableReason(channel: Pick<Channel, "kind" | "enabled">, smtpSet: boolean): string | null {
  if (!channel.enabled) return "The channel is disabled: enable it to send.";
  if (channel.kind === "email" && !smtpSet)
    return "No mail server is set: e-mail cannot be sent until one is (Mail server, above).";
  return null;
}

export function channelOutput(channel: Channel, smtpSet: boolean): ChannelOutput {
  return {
    id: channel.id,
    kind: channel.kind,
    name: channel.name,
    target_hint: channel.targetHint,
    time_zone: channel.timeZone,
    digest_enabled: channel.digestEnabled,
    digest_day: channel.digestDay,
    digest_hour: channel.digestHour,
    enabled: channel.enabled,
    sendable: unsendableReason(channel, smtpSet),
    created_at: channel.createdAt,
    updated_at: channel.updatedAt,
  };
}

/** The addresses of an e-mail channel's target, or why they are not addresses. */
export function parseAddresses(text: string): { ok: true; addresses: string[] } | { ok: false; reason: string } {
  const addresses = text
    .split(/[,;\s]+/)
    .map((each) => each.trim().toLowerCase())
    .filter((each) => each !== "");
  if (addresses.length === 0) return { ok: false, reason: "target must be an e-mail address" };
  if (addresses.length > MAX_ADDRESSES)
    return { ok: false, reason: `target may list at most ${MAX_ADDRESSES} addresses` };
  const wrong = addresses.find((each) => !ADDRESS.test(each));
  if (wrong) return { ok: false, reason: `target holds ${wrong}, which is not an e-mail address` };
  return { ok: true, addresses: [...new Set(addresses)] };
}

/** What the pages show of a webhook URL: its host and last 4 characters (the path is the secret). */
export function webhookHint(url: URL): string {
  return `${url.host} …${url.href.slice(-4)}`;
}

/**
 * Checks a target for its kind: a Slack or Teams URL on its service's hosts (any host with WEBHOOK_ALLOW_PRIVATE=1,
 * for tests and development) whose addresses are all public; e-mail addresses. Its stored form and hint.
 */
export async function checkTarget(
  kind: NotificationChannelKind,
  text: string,
  rules: TargetRules,
): Promise<{ stored: string; hint: string }> {
  if (kind === "email") {
    const parsed = parseAddresses(text);
    if (!parsed.ok) throw new NotificationError("invalid", parsed.reason, "target");
    return { stored: parsed.addresses.join(", "), hint: parsed.addresses.join(", ") };
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new NotificationError("invalid", `target must be the ${serviceOf(kind)} incoming webhook's URL`, "target");
  }
  if (!rules.allowPrivate) {
    const host = url.hostname.toLowerCase();
    if (kind === "slack" && host !== "hooks.slack.com")
      throw new NotificationError(
        "invalid",
        "target must be a Slack incoming webhook's URL, https://hooks.slack.com/services/…",
        "target",
      );
    if (kind === "teams" && !TEAMS_HOSTS.some((pattern) => pattern.test(host)))
      throw new NotificationError(
        "invalid",
        "target must be a Microsoft Teams webhook's URL: a Workflows one (…logic.azure.com or …powerplatform.com) or a connector's (…webhook.office.com)",
        "target",
      );
  }
  const checked = await resolveTarget(url.href, rules);
  if (!checked.ok) throw new NotificationError("invalid", `target ${checked.reason}`, "target");
  return { stored: url.href, hint: webhookHint(url) };
}

const serviceOf = (kind: NotificationChannelKind) => (kind === "teams" ? "Microsoft Teams" : "Slack");

export async function createChannel(
  db: Db,
  body: ChannelCreateBody,
  settings: NotificationSettings,
  createdBy: string | null,
  now = new Date(),
): Promise<Channel> {
  const { stored, hint } = await checkTarget(body.kind, body.target, settings);
  const at = now.toISOString();
  const row = await db
    .insertInto("notification_channels")
    .values({
      id: randomUUID(),
      kind: body.kind,
      name: body.name,
      target_sealed: targetSealer.seal(stored, settings.sealKey),
      target_hint: hint,
      time_zone: body.time_zone ?? "UTC",
      digest_enabled: body.digest_enabled === false ? 0 : 1,
      digest_day: body.digest_day ?? 1,
      digest_hour: body.digest_hour ?? 9,
      disabled: 0,
      created_at: at,
      created_by: createdBy,
      updated_at: at,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toChannel(row);
}

export async function listChannels(db: Db): Promise<Channel[]> {
  return (
    await db.selectFrom("notification_channels").selectAll().orderBy("created_at", "asc").orderBy("id").execute()
  ).map(toChannel);
}

export async function getChannel(db: Db, id: string): Promise<Channel> {
  const row = await db.selectFrom("notification_channels").selectAll().where("id", "=", id).executeTakeFirst();
  if (!row) throw new NotificationError("not_found", `There is no notification channel with id ${id}.`);
  return toChannel(row);
}

export async function updateChannel(
  db: Db,
  id: string,
  patch: ChannelUpdateBody,
  settings: NotificationSettings,
  now = new Date(),
): Promise<Channel> {
  const current = await getChannel(db, id);
  const target = patch.target === undefined ? null : await checkTarget(current.kind, patch.target, settings);
  const row = await db
    .updateTable("notification_channels")
    .set({
      ...(patch.name !== undefined && { name: patch.name }),
      ...(target !== null && {
        target_sealed: targetSealer.seal(target.stored, settings.sealKey),
        target_hint: target.hint,
      }),
      ...(patch.time_zone !== undefined && { time_zone: patch.time_zone }),
      ...(patch.digest_enabled !== undefined && { digest_enabled: patch.digest_enabled ? 1 : 0 }),
      ...(patch.digest_day !== undefined && { digest_day: patch.digest_day }),
      ...(patch.digest_hour !== undefined && { digest_hour: patch.digest_hour }),
      ...(patch.enabled !== undefined && { disabled: patch.enabled ? 0 : 1 }),
      updated_at: now.toISOString(),
    })
    .where("id", "=", id)
    .returningAll()
    .executeTakeFirstOrThrow();
  // Its zone, digest day, hour or switch may have changed: the next tick works out when its digest is due.
  await digestDueNow(db, "channel", id, now);
  return toChannel(row);
}

/** Removes the channel with its subscriptions, deliveries and their log. */
export async function deleteChannel(db: Db, id: string): Promise<Channel> {
  const channel = await getChannel(db, id);
  await db.transaction().execute(async (trx) => {
    await forgetSubscribers(trx, "channel", [id]);
    await trx.deleteFrom("notification_channels").where("id", "=", id).execute();
  });
  return channel;
}

/** The channel as a send needs it: its kind, whether it is on, and its target opened (null: the seal no longer opens). */
export async function channelToSend(
  db: Db,
  id: string,
  sealKey: string,
): Promise<{ channel: Channel; target: string | null } | null> {
  const row = await db.selectFrom("notification_channels").selectAll().where("id", "=", id).executeTakeFirst();
  if (!row) return null;
  return { channel: toChannel(row), target: targetSealer.open(row.target_sealed, sealKey) };
}
