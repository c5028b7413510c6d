// What the notifications' store tests share: people, subscriptions, a clock, the rules' dependencies.
import type { Db } from "@/lib/db";
import type { RulesDeps } from "@/lib/notifications/rules";
import { DEFAULT_NOTIFICATION_SETTINGS, type NotificationSettings } from "@/lib/notifications/settings";
import type { NotificationMessage } from "@/lib/notifications/message";

export async function addPerson(
  db: Db,
  id: string,
  role: "admin" | "editor" | "viewer" | "support",
  options: { timeZone?: string | null; disabled?: boolean } = {},
): Promise<void> {
  const now = "2026-11-01T00:00:00.000Z";
  await db
    .insertInto("users")
    .values({
      id,
      email: `${id}@example.com`,
      name: id,
      role,
      password_hash: "x",
      disabled: options.disabled ? 1 : 0,
      session_version: 0,
      created_at: now,
      updated_at: now,
      time_zone: options.timeZone ?? null,
    })
    .execute();
}

export async function subscribe(
  db: Db,
  kind: "user" | "channel",
  id: string,
  topic: string,
  narrowing: { project?: string; rule?: string } = {},
): Promise<void> {
  await db
    .insertInto("notification_subscriptions")
    .values({
      id: `${kind}-${id}-${topic}-${narrowing.project ?? ""}-${narrowing.rule ?? ""}`,
      subscriber_kind: kind,
      subscriber_id: id,
      topic,
      project: narrowing.project ?? "",
      rule: narrowing.rule ?? "",
      created_at: "2026-11-01T00:00:00.000Z",
    })
    .execute();
}

export async function addChannel(
  db: Db,
  id: string,
  options: { disabled?: boolean; timeZone?: string } = {},
): Promise<void> {
  const now = "2026-11-01T00:00:00.000Z";
  await db
    .insertInto("notification_channels")
    .values({
      id,
      kind: "slack",
      name: id,
      target_sealed: "sealed",
      target_hint: "hooks.slack.com …abcd",
      time_zone: options.timeZone ?? "UTC",
      disabled: options.disabled ? 1 : 0,
      created_at: now,
      updated_at: now,
    })
    .execute();
}

/** A mail server set (its row only: what the rules look at before writing mail; nothing is sent here). */
export async function setMailServer(db: Db): Promise<void> {
  await db
    .insertInto("notification_smtp")
    .values({
      id: "smtp",
      host: "127.0.0.1",
      port: 2525,
      security: "starttls",
      username: null,
      password_sealed: null,
      from_address: "gatehouse@example.com",
      set_at: "2026-11-01T00:00:00.000Z",
      set_by: null,
    })
    .execute();
}

/** A clock the test moves, and the rules' dependencies on it. */
export function rulesOn(
  db: Db,
  start: string,
  settings: Partial<NotificationSettings> = {},
): { deps: RulesDeps; setNow: (iso: string) => void; kicks: () => number } {
  let now = new Date(start);
  let kicked = 0;
  return {
    deps: {
      db,
      now: () => now,
      settings: { ...DEFAULT_NOTIFICATION_SETTINGS, ...settings },
      kick: () => void kicked++,
    },
    setNow: (iso) => {
      now = new Date(iso);
    },
    kicks: () => kicked,
  };
}

export interface DeliveryRow {
  recipient_kind: string;
  recipient_id: string;
  channel_kind: string;
  topic: string;
  status: string;
  not_before: string;
  merge_key: string | null;
  messages: NotificationMessage[];
}

export async function deliveries(db: Db): Promise<DeliveryRow[]> {
  const rows = await db
    .selectFrom("notification_deliveries")
    .select([
      "recipient_kind",
      "recipient_id",
      "channel_kind",
      "topic",
      "status",
      "not_before",
      "merge_key",
      "messages",
    ])
    .orderBy("created_at")
    .orderBy("recipient_id")
    .execute();
  return rows.map((row) => ({ ...row, messages: JSON.parse(row.messages) as NotificationMessage[] }));
}
