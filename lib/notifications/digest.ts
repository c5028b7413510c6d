// The weekly digest: per person (by e-mail) and per channel, at the subscriber's day and hour in his zone (a
// channel's zone), once per ISO week (notification_digests' key guards it across instances and ticks). It says the
// week: results by project, what got worse and what got better, the purchase checks by outcome (for those who may
// see purchases), and the alerts still open. A person's digest is on unless he turned it off (or his e-mail);
// it does not need a subscription: it is the one message a person gets without asking.
import "server-only";

import { sql } from "kysely";

import { can } from "@/lib/auth/permissions";
import { isOneOf, NOTIFICATION_CHANNEL_KINDS, RESULT_RANK, ROLES, type ReportResult } from "@/lib/contract/values";
import type { Db } from "@/lib/db";

import { deliver } from "./outbox";
import type { NotificationMessage } from "./message";
import { wallClock } from "./quiet-hours";
import type { Recipient } from "./recipients";
import { pageName, type RulesDeps } from "./rules";

const DAY_MS = 86_400_000;
/** Lines a section lists, at most (then "and N more"). */
const MAX_LINES = 10;

/** The ISO week of a calendar date ("2026-11-28" → "2026-W48"). */
export function isoWeek(date: string): string {
  const day = new Date(`${date}T00:00:00Z`);
  const weekday = (day.getUTCDay() + 6) % 7; // Monday 0
  const thursday = new Date(day.getTime() + (3 - weekday) * DAY_MS);
  const yearStart = Date.UTC(thursday.getUTCFullYear(), 0, 1);
  const week = 1 + Math.floor((thursday.getTime() - yearStart) / DAY_MS / 7);
  return `${thursday.getUTCFullYear()}-W${String(week).padStart(2, "0")}`;
}

/** Whether a digest set for `day` (0 Sunday) at `hour` is due at `now` in `zone`; its week when it is. */
export function digestWeekDue(now: Date, zone: string, day: number, hour: number): string | null {
  const wall = wallClock(now, zone);
  if (wall.weekday !== day || wall.minute < hour * 60) return null;
  return isoWeek(wall.date);
}

type Line = { text: string; link?: string };

function capped(lines: Line[]): Line[] {
  if (lines.length <= MAX_LINES) return lines;
  return [...lines.slice(0, MAX_LINES), { text: `and ${lines.length - MAX_LINES} more` }];
}

/** The week before `until` as a digest message; purchases only when `purchases` (the subscriber may see them). */
export async function buildDigest(db: Db, until: Date, purchases: boolean): Promise<NotificationMessage> {
  const since = new Date(until.getTime() - 7 * DAY_MS).toISOString();
  const sections: NonNullable<NotificationMessage["sections"]> = [];

  const mix = await db
    .selectFrom("report_latest")
    .select(["project", "result", sql<number>`count(*)`.as("n")])
    .groupBy(["project", "result"])
    .execute();
  const projects = new Map<string, Record<ReportResult, number>>();
  for (const row of mix) {
    const name = row.project ?? "(no project)";
    const counts = projects.get(name) ?? { good: 0, decent: 0, bad: 0 };
    if (isOneOf(Object.keys(RESULT_RANK) as ReportResult[], row.result)) counts[row.result] += Number(row.n);
    projects.set(name, counts);
  }
  sections.push({
    heading: "Results by project",
    lines: capped(
      [...projects]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([name, c]) => ({
          text: `${name}: ${c.good} good, ${c.decent} decent, ${c.bad} bad`,
          link: name === "(no project)" ? "/reports" : `/projects/${encodeURIComponent(name)}/overview`,
        })),
    ),
  });

  // Each report's result at the week's start (its last before it) against its newest: worse or better.
  const week = await db
    .selectFrom("report_results")
    .select(["report_id", "url", "result", "generated_at"])
    .where("generated_at", ">=", since)
    .where("generated_at", "<", until.toISOString())
    .orderBy("generated_at")
    .execute();
  const newest = new Map<number, { url: string; result: string }>();
  for (const row of week) newest.set(row.report_id, row);
  const worse: Line[] = [];
  const better: Line[] = [];
  for (const [reportId, latest] of newest) {
    const before = await db
      .selectFrom("report_results")
      .select("result")
      .where("report_id", "=", reportId)
      .where("generated_at", "<", since)
      .orderBy("generated_at", "desc")
      .executeTakeFirst();
    const start = before?.result ?? week.find((r) => r.report_id === reportId)!.result;
    const rank = (r: string) => RESULT_RANK[r as ReportResult] ?? 0;
    const line = { text: `${pageName(latest.url)}: ${start} → ${latest.result}`, link: `/reports/${reportId}` };
    if (rank(latest.result) > rank(start)) worse.push(line);
    else if (rank(latest.result) < rank(start)) better.push(line);
  }
  sections.push({ heading: "Got worse", lines: capped(worse.length ? worse : [{ text: "Nothing got worse." }]) });
  sections.push({ heading: "Got better", lines: capped(better.length ? better : [{ text: "Nothing got better." }]) });

  if (purchases) {
    const checks = await db
      .selectFrom("purchase_checks")
      .select(["outcome", sql<number>`count(*)`.as("n")])
      .where("checked_at", ">=", since)
      .where("checked_at", "<", until.toISOString())
      .groupBy("outcome")
      .execute();
    const total = checks.reduce((sum, row) => sum + Number(row.n), 0);
    sections.push({
      heading: "Purchase checks",
      lines: [
        {
          text:
            total === 0
              ? "No purchase checks this week."
              : `${total} checks: ${checks.map((row) => `${Number(row.n)} ${row.outcome}`).join(", ")}`,
          link: "/purchases/history",
        },
      ],
    });
  }

  const open = await db
    .selectFrom("report_alerts")
    .select(["report_id", "url", "from_result", "to_result"])
    .where("acknowledged_at", "is", null)
    .orderBy("created_at", "desc")
    .limit(MAX_LINES + 1)
    .execute();
  const openCount = Number(
    (
      await db
        .selectFrom("report_alerts")
        .select(sql<number>`count(*)`.as("n"))
        .where("acknowledged_at", "is", null)
        .executeTakeFirstOrThrow()
    ).n,
  );
  sections.push({
    heading: "Open alerts",
    lines:
      openCount === 0
        ? [{ text: "No open alerts." }]
        : [
            ...open.slice(0, MAX_LINES).map((a) => ({
              text: `${pageName(a.url)}: ${a.from_result} → ${a.to_result}`,
              link: `/reports/${a.report_id}`,
            })),
            ...(openCount > MAX_LINES ? [{ text: `and ${openCount - MAX_LINES} more`, link: "/alerts" }] : []),
          ],
  });

  return {
    topic: "digest",
    title: `Your week in Gatehouse: ${worse.length} got worse, ${better.length} got better, ${openCount} open alerts`,
    text: `From ${since.slice(0, 10)} to ${until.toISOString().slice(0, 10)}.`,
    since,
    link: "/",
    tone: "info",
    sections,
  };
}

/** Sends every digest due now (the tick); returns how many were written. */
export async function sendDueDigests(deps: RulesDeps): Promise<number> {
  const now = deps.now();
  const candidates: Array<{ recipient: Recipient; day: number; hour: number; zone: string; purchases: boolean }> = [];
  const people = await deps.db
    .selectFrom("users")
    .leftJoin("notification_preferences", "notification_preferences.user_id", "users.id")
    .select([
      "users.id",
      "users.role",
      "users.time_zone",
      "notification_preferences.email_enabled",
      "notification_preferences.digest_enabled",
      "notification_preferences.digest_day",
      "notification_preferences.digest_hour",
    ])
    .where("users.disabled", "=", 0)
    .where("users.service", "=", 0)
    .execute();
  for (const person of people) {
    if (person.email_enabled === 0 || person.digest_enabled === 0 || !isOneOf(ROLES, person.role)) continue;
    if (!can({ role: person.role }, "reports:read")) continue;
    const zone = person.time_zone ?? "UTC";
    candidates.push({
      recipient: { kind: "user", id: person.id, channelKind: "email", zone, quietStart: null, quietEnd: null },
      day: person.digest_day ?? 1,
      hour: person.digest_hour ?? 9,
      zone,
      purchases: can({ role: person.role }, "purchases:check"),
    });
  }
  const channels = await deps.db
    .selectFrom("notification_channels")
    .select(["id", "kind", "time_zone", "digest_day", "digest_hour"])
    .where("disabled", "=", 0)
    .where("digest_enabled", "=", 1)
    .execute();
  for (const channel of channels) {
    if (!isOneOf(NOTIFICATION_CHANNEL_KINDS, channel.kind)) continue;
    candidates.push({
      recipient: {
        kind: "channel",
        id: channel.id,
        channelKind: channel.kind,
        zone: null,
        quietStart: null,
        quietEnd: null,
      },
      day: channel.digest_day,
      hour: channel.digest_hour,
      zone: channel.time_zone,
      purchases: true,
    });
  }

  let sent = 0;
  const built = new Map<boolean, NotificationMessage>();
  for (const { recipient, day, hour, zone, purchases } of candidates) {
    const week = digestWeekDue(now, zone, day, hour);
    if (week === null) continue;
    const claimed = await deps.db
      .insertInto("notification_digests")
      .values({ subscriber_kind: recipient.kind, subscriber_id: recipient.id, week, sent_at: now.toISOString() })
      .onConflict((conflict) => conflict.columns(["subscriber_kind", "subscriber_id", "week"]).doNothing())
      .executeTakeFirst();
    if (Number(claimed.numInsertedOrUpdatedRows ?? 0n) !== 1) continue;
    let message = built.get(purchases);
    if (!message) {
      message = await buildDigest(deps.db, now, purchases);
      built.set(purchases, message);
    }
    await deliver(deps.db, recipient, message, null, now, 0);
    sent++;
  }
  if (sent > 0) deps.kick?.();
  return sent;
}
