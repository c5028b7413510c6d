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
import { smtpIsSet } from "./smtp";
import type { NotificationMessage } from "./message";
import {
  digestInstant,
  digestWeekDue,
  dueSubscribers,
  forgetDigestDue,
  nextDigestDue,
  setDigestDue,
} from "./digest-due";
import type { Recipient } from "./recipients";
import { pageName, type RulesDeps } from "./rules";

const DAY_MS = 86_400_000;
/** Lines a section lists, at most (then "and N more"). */
const MAX_LINES = 10;

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

/** A subscriber's digest settings, read for the due ones only; null when he gets none now (looked at again weekly). */
interface DigestSubscriber {
  recipient: Recipient;
  day: number;
  hour: number;
  zone: string;
  purchases: boolean;
  gets: boolean;
  /** When he (or the channel) was added: a week whose digest time came before that is not his. */
  since: string;
}

async function peopleOf(db: Db, ids: readonly string[]): Promise<Map<string, DigestSubscriber>> {
  if (ids.length === 0) return new Map();
  const people = await db
    .selectFrom("users")
    .leftJoin("notification_preferences", "notification_preferences.user_id", "users.id")
    .select([
      "users.id",
      "users.role",
      "users.time_zone",
      "users.disabled",
      "users.service",
      "users.created_at",
      "notification_preferences.email_enabled",
      "notification_preferences.digest_enabled",
      "notification_preferences.digest_day",
      "notification_preferences.digest_hour",
    ])
    .where("users.id", "in", ids)
    .execute();
  return new Map(
    people.map((person) => {
      const zone = person.time_zone ?? "UTC";
      const role = isOneOf(ROLES, person.role) ? person.role : null;
      return [
        person.id,
        {
          recipient: { kind: "user", id: person.id, channelKind: "email", zone, quietStart: null, quietEnd: null },
          day: person.digest_day ?? 1,
          hour: person.digest_hour ?? 9,
          zone,
          purchases: role !== null && can({ role }, "purchases:check"),
          since: person.created_at,
          gets:
            Number(person.disabled) === 0 &&
            Number(person.service) === 0 &&
            person.email_enabled !== 0 &&
            person.digest_enabled !== 0 &&
            role !== null &&
            can({ role }, "reports:read"),
        },
      ];
    }),
  );
}

async function channelsOf(db: Db, ids: readonly string[]): Promise<Map<string, DigestSubscriber>> {
  if (ids.length === 0) return new Map();
  const channels = await db
    .selectFrom("notification_channels")
    .select(["id", "kind", "time_zone", "digest_day", "digest_hour", "disabled", "digest_enabled", "created_at"])
    .where("id", "in", ids)
    .execute();
  return new Map(
    channels.map((channel) => {
      const kind = isOneOf(NOTIFICATION_CHANNEL_KINDS, channel.kind) ? channel.kind : "slack";
      return [
        channel.id,
        {
          recipient: {
            kind: "channel",
            id: channel.id,
            channelKind: kind,
            zone: null,
            quietStart: null,
            quietEnd: null,
          },
          day: channel.digest_day,
          hour: channel.digest_hour,
          zone: channel.time_zone,
          purchases: true,
          since: channel.created_at,
          gets:
            Number(channel.disabled) === 0 &&
            Number(channel.digest_enabled) === 1 &&
            isOneOf(NOTIFICATION_CHANNEL_KINDS, channel.kind),
        },
      ];
    }),
  );
}

/**
 * Sends every digest due now (the tick): only the subscribers whose stored instant has come are read
 * (./digest-due.ts). Each gets the digest of the ISO week he is in when his day and hour have come in it — once
 * per week across instances and ticks (notification_digests' key) — and his row then says when to look next.
 * Returns how many were written.
 */
export async function sendDueDigests(deps: RulesDeps): Promise<number> {
  const now = deps.now();
  const due = await dueSubscribers(deps.db, now);
  if (due.length === 0) return 0;
  const found = {
    user: await peopleOf(
      deps.db,
      due.filter((d) => d.kind === "user").map((d) => d.id),
    ),
    channel: await channelsOf(
      deps.db,
      due.filter((d) => d.kind === "channel").map((d) => d.id),
    ),
  };
  const gone = { user: [] as string[], channel: [] as string[] };
  // Mail needs a mail server: without one, a person's (or an e-mail channel's) digest is not written (it could only
  // fail, a warning each): that week goes without it.
  const canMail = await smtpIsSet(deps.db);

  let sent = 0;
  const built = new Map<boolean, NotificationMessage>();
  for (const { kind, id } of due) {
    const subscriber = found[kind].get(id);
    if (!subscriber) {
      gone[kind].push(id);
      continue;
    }
    const { recipient, day, hour, zone, purchases, gets, since } = subscriber;
    const reachable = recipient.channelKind !== "email" || canMail;
    // A week whose digest time came before he was added (a new person, a fresh install) is not his.
    const his = digestInstant(now, zone, day, hour).toISOString() >= since;
    const week = gets && reachable && his ? digestWeekDue(now, zone, day, hour) : null;
    if (week !== null) {
      const claimed = await deps.db
        .insertInto("notification_digests")
        .values({ subscriber_kind: kind, subscriber_id: id, week, sent_at: now.toISOString() })
        .onConflict((conflict) => conflict.columns(["subscriber_kind", "subscriber_id", "week"]).doNothing())
        .executeTakeFirst();
      if (Number(claimed.numInsertedOrUpdatedRows ?? 0n) === 1) {
        let message = built.get(purchases);
        if (!message) {
          message = await buildDigest(deps.db, now, purchases);
          built.set(purchases, message);
        }
        await deliver(deps.db, recipient, message, null, now, 0);
        sent++;
      }
    }
    await setDigestDue(deps.db, kind, id, nextDigestDue(now, zone, day, hour));
  }
  await forgetDigestDue(deps.db, "user", gone.user);
  await forgetDigestDue(deps.db, "channel", gone.channel);
  if (sent > 0) deps.kick?.();
  return sent;
}
