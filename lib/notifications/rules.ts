// The rules: what happened (an event of lib/events, a result recorded, a tick) becomes messages for the people and
// channels subscribed, once it has lasted (./lasting.ts), held and merged (./outbox.ts). The delivery job (./delivery-job.ts) sends
// the rows. Every function takes its clock and store in `deps`, so tests drive it without a server.
import "server-only";

import {
  DEFAULT_ALERT_RULE,
  isOneOf,
  REPORT_RESULTS,
  type AlertRule,
  type NotificationTopic,
  type ReportResult,
} from "@/lib/contract/values";
import type { Db } from "@/lib/db";
import type { PortalEvent } from "@/lib/events";
import { ruleWants } from "@/lib/reports/alerts";
import { isDrop } from "@/lib/reports/history";

import { loadCondition, saveCondition } from "./conditions";
import { deliver } from "./outbox";
import { due, firstSeen, observe, observeTimed, type Condition, type Verdict } from "./lasting";
import type { NotificationMessage } from "./message";
import { recipientsOf, type Narrowing } from "./recipients";
import type { NotificationSettings } from "./settings";

export interface RulesDeps {
  db: Db;
  now: () => Date;
  settings: NotificationSettings;
  /** Tells the delivery sweep (./index.ts) that rows were written (optional: its own sweep finds them too). */
  kick?: () => void;
}

/** The row that remembers the last report_results id the rules have read (created by the migration). */
export const RESULTS_CURSOR = "cursor:report_results";
/** Result rows read at once. */
const RESULTS_BATCH = 500;

/** Writes `message` for every recipient of `topic` (narrowed); kicks the sweep when any was written. */
async function send(
  deps: RulesDeps,
  topic: NotificationTopic,
  message: NotificationMessage,
  mergeKey: string | null,
  narrowing: Narrowing = {},
): Promise<number> {
  const recipients = await recipientsOf(deps.db, topic, narrowing);
  const now = deps.now();
  for (const recipient of recipients)
    await deliver(deps.db, recipient, message, mergeKey, now, deps.settings.mergeWindowMs);
  if (recipients.length > 0) deps.kick?.();
  return recipients.length;
}

const str = (value: unknown): string => (typeof value === "string" ? value : "");
const AREA_NAMES: Record<string, string> = { reports: "The reports API", items: "The item API" };
const areaName = (area: string): string => AREA_NAMES[area] ?? `The ${area} service`;

/**
 * One event of lib/events, as the rules read it. Report results are read from the history instead (every result,
 * not only changes: ./rules.ts `readNewResults`), so a report.result_changed only makes the rules read it now.
 */
/** The events the rules read; every other (a purchase checked, a report created) is none of their business. */
export const RULES_EVENTS: ReadonlySet<PortalEvent["type"]> = new Set([
  "report.result_changed",
  "upstream.unavailable",
  "upstream.recovered",
  "upstream.key_rejected",
  "upstream.key_restored",
  "bulk_job.finished",
  "purchase.revoked",
  "purchase.support_expiring",
  "licence.limit_reached",
  "token.quota_reached",
]);

export async function notifyOfEvent(deps: RulesDeps, event: PortalEvent): Promise<void> {
  const at = (event.occurredAt ?? deps.now()).toISOString();
  const data = event.data;
  switch (event.type) {
    case "report.result_changed":
      await readNewResults(deps);
      return;
    case "upstream.unavailable":
    case "upstream.recovered":
      await upstreamSeen(deps, str(data.area), event.type === "upstream.recovered" ? "up" : "down", at);
      return;
    case "upstream.key_rejected":
    case "upstream.key_restored":
      await keySeen(deps, str(data.area), event.type === "upstream.key_restored" ? "ok" : "rejected", at);
      return;
    case "bulk_job.finished":
      await bulkFinished(deps, data, at);
      return;
    case "purchase.revoked":
    case "purchase.support_expiring":
    case "licence.limit_reached":
      await purchaseEvent(deps, event.type, data, at);
      return;
    case "token.quota_reached":
      await tokenQuotaReached(deps, data, at);
      return;
    default:
      return;
  }
}

// ---------------------------------------------------------------------------------------------------------
// Reports: every result recorded, in the order written; a change alerts once it has lasted.

const isWorseResult = (from: string, to: string): boolean =>
  isOneOf(REPORT_RESULTS, from) && isOneOf(REPORT_RESULTS, to) && isDrop(from, to);

/** Reads the results recorded since the last read (all instances share the cursor: each batch is taken once). */
export async function readNewResults(deps: RulesDeps): Promise<number> {
  let read = 0;
  for (;;) {
    const cursor = await loadCondition(deps.db, RESULTS_CURSOR);
    const after = Number(cursor?.state ?? 0);
    const rows = await deps.db
      .selectFrom("report_results")
      .select(["id", "report_id", "url", "project", "result", "generated_at"])
      .where("id", ">", after)
      .orderBy("id")
      .limit(RESULTS_BATCH)
      .execute();
    if (rows.length === 0) return read;
    const last = String(rows[rows.length - 1]!.id);
    // Take the batch: another instance that read the same cursor finds it moved and reads again.
    const taken = cursor
      ? await deps.db
          .updateTable("notification_conditions")
          .set({ state: last, updated_at: deps.now().toISOString() })
          .where("key", "=", RESULTS_CURSOR)
          .where("state", "=", cursor.state)
          .executeTakeFirst()
      : await deps.db
          .insertInto("notification_conditions")
          .values({
            ...firstSeen(RESULTS_CURSOR, last, deps.now().toISOString()),
            updated_at: deps.now().toISOString(),
          })
          .onConflict((conflict) => conflict.column("key").doNothing())
          .executeTakeFirst();
    if (Number("numUpdatedRows" in taken ? taken.numUpdatedRows : (taken.numInsertedOrUpdatedRows ?? 0n)) !== 1)
      continue;
    for (const row of rows) await resultSeen(deps, row);
    read += rows.length;
    if (rows.length < RESULTS_BATCH) return read;
  }
}

interface ResultRow {
  report_id: number;
  url: string;
  project: string | null;
  result: string;
  generated_at: string;
}

async function resultSeen(deps: RulesDeps, row: ResultRow): Promise<void> {
  const key = `report:${row.report_id}`;
  let condition = await loadCondition(deps.db, key);
  if (condition && row.generated_at < (condition.candidate_since ?? condition.since)) return; // older, seen late
  if (!condition) {
    // The report's result before this one (recorded before the rules were there) is where it stood.
    const before = await deps.db
      .selectFrom("report_results")
      .select(["result", "generated_at"])
      .where("report_id", "=", row.report_id)
      .where("generated_at", "<", row.generated_at)
      .orderBy("generated_at", "desc")
      .executeTakeFirst();
    if (!before) {
      await saveCondition(deps.db, firstSeen(key, row.result, row.generated_at), deps.now());
      return;
    }
    condition = firstSeen(key, before.result, before.generated_at);
  }
  const step = observe(condition, row.result, row.generated_at, deps.settings.resultsToLast, isWorseResult);
  await saveCondition(deps.db, step.condition, deps.now());
  if (step.verdict) await reportVerdict(deps, row, step.verdict, step.condition.since);
}

async function projectRule(db: Db, project: string | null): Promise<AlertRule> {
  if (project === null) return DEFAULT_ALERT_RULE;
  const row = await db
    .selectFrom("report_alert_rules")
    .select("rule")
    .where("project", "=", project)
    .executeTakeFirst();
  return (row?.rule as AlertRule | undefined) ?? DEFAULT_ALERT_RULE;
}

/** A report's page, for a title: "acme.io/pricing" of "https://acme.io/pricing". */
export function pageName(url: string): string {
  return url.replace(/^https?:\/\//, "").replace(/\/$/, "");
}

async function reportVerdict(
  deps: RulesDeps,
  row: ResultRow,
  verdict: NonNullable<Verdict>,
  since: string,
): Promise<void> {
  const own = await projectRule(deps.db, row.project);
  const bad = (verdict.say === "alert" ? verdict.to : verdict.from) as ReportResult;
  const wants = (rule: AlertRule | "") => ruleWants(rule === "" ? own : rule, bad);
  const topic: NotificationTopic = verdict.say === "alert" ? "report.regressed" : "report.recovered";
  const page = pageName(row.url);
  const lasted = deps.settings.resultsToLast;
  const message: NotificationMessage = {
    topic,
    title: `${page} went from ${verdict.from} to ${verdict.to}`,
    text:
      verdict.say === "alert"
        ? `Its result has been ${verdict.to} for ${lasted} ${lasted === 1 ? "result" : "results"} in a row, since ${since}.`
        : `It is ${verdict.to} again since ${since}, after it was announced ${verdict.from}.`,
    since,
    link: `/reports/${row.report_id}`,
    tone: verdict.say === "alert" ? "bad" : "good",
    group: row.project ?? undefined,
    facts: [
      { label: "Project", value: row.project ?? "none" },
      { label: "Result", value: `${verdict.from} → ${verdict.to}` },
    ],
  };
  await send(deps, topic, message, `${topic}:${row.project ?? ""}`, { project: row.project, ruleWants: wants });
}

// ---------------------------------------------------------------------------------------------------------
// Upstreams: down once unavailable for downMinutes (the tick asks), up once after; keys at once.

async function upstreamSeen(deps: RulesDeps, area: string, state: "up" | "down", at: string): Promise<void> {
  if (!area) return;
  const key = `upstream:${area}`;
  const condition = (await loadCondition(deps.db, key)) ?? firstSeen(key, "up", at);
  const step = observeTimed(condition, state, at, "up", deps.settings.downMinutes, deps.now());
  await saveCondition(deps.db, step.condition, deps.now());
  if (step.verdict) await upstreamVerdict(deps, area, step.verdict, step.condition.since);
}

async function upstreamVerdict(
  deps: RulesDeps,
  area: string,
  verdict: NonNullable<Verdict>,
  since: string,
): Promise<void> {
  const down = verdict.say === "alert";
  const topic: NotificationTopic = down ? "upstream.down" : "upstream.up";
  const message: NotificationMessage = {
    topic,
    title: down ? `${areaName(area)} is down` : `${areaName(area)} answers again`,
    text: down
      ? `It has not answered since ${since}; pages that need it show an error until it is back.`
      : `It answers again since ${since}.`,
    since,
    link: "/admin/upstream",
    tone: down ? "bad" : "good",
    group: area,
  };
  await send(deps, topic, message, `${topic}:${area}`);
}

async function keySeen(deps: RulesDeps, area: string, state: "ok" | "rejected", at: string): Promise<void> {
  if (!area) return;
  const key = `key:${area}`;
  const condition = (await loadCondition(deps.db, key)) ?? firstSeen(key, "ok", at);
  // A rejected key is no flap: it is said at once (needed 1), and its restoring once after.
  const step = observe(condition, state, at, 1, (from, to) => from === "ok" && to === "rejected");
  await saveCondition(deps.db, step.condition, deps.now());
  if (!step.verdict) return;
  const rejected = step.verdict.say === "alert";
  const topic: NotificationTopic = rejected ? "upstream.key_rejected" : "upstream.key_restored";
  await send(
    deps,
    topic,
    {
      topic,
      title: rejected ? `${areaName(area)} rejected its key` : `${areaName(area)} accepts its key again`,
      text: rejected
        ? `Since ${at} it answers that the key is not valid. An admin can set a new key on the upstream page.`
        : `Since ${at} its key works again.`,
      since: at,
      link: "/admin/upstream",
      tone: rejected ? "bad" : "good",
      group: area,
    },
    `${topic}:${area}`,
  );
}

/** The tick's question: which timed conditions (upstreams down) have lasted by now. */
export async function checkDueConditions(deps: RulesDeps): Promise<number> {
  const rows = await deps.db
    .selectFrom("notification_conditions")
    .selectAll()
    .where("key", "like", "upstream:%")
    .where("candidate", "=", "down")
    .execute();
  let said = 0;
  for (const { updated_at: _updated, ...condition } of rows) {
    const step = due(condition as Condition, "up", deps.settings.downMinutes, deps.now());
    if (!step.verdict) continue;
    // Only the instance whose update wins says it.
    const moved = await deps.db
      .updateTable("notification_conditions")
      .set({ ...step.condition, updated_at: deps.now().toISOString() })
      .where("key", "=", condition.key)
      .where("candidate", "=", "down")
      .where("candidate_since", "=", condition.candidate_since)
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) !== 1) continue;
    await upstreamVerdict(deps, condition.key.slice("upstream:".length), step.verdict, step.condition.since);
    said++;
  }
  return said;
}

// ---------------------------------------------------------------------------------------------------------
// Bulk jobs, purchases, licences: each event is one message (nothing to last).

async function bulkFinished(deps: RulesDeps, data: Record<string, unknown>, at: string): Promise<void> {
  const job = (data.job ?? {}) as Record<string, unknown>;
  const id = str(job.id);
  if (!id) return;
  const owner = await deps.db.selectFrom("bulk_jobs").select("user_id").where("id", "=", id).executeTakeFirst();
  if (!owner) return;
  const count = (name: string) => (typeof job[name] === "number" ? (job[name] as number) : 0);
  await send(
    deps,
    "bulk.finished",
    {
      topic: "bulk.finished",
      title: `Your bulk check of ${count("total")} codes is done`,
      text: `${count("valid")} valid, ${count("invalid")} not valid, ${count("revoked")} revoked, ${count("failed")} not checked.`,
      since: at,
      link: `/purchases/bulk/${id}`,
      tone: "info",
    },
    null,
    { onlyUser: owner.user_id },
  );
}

/** A token used its monthly quota: its owner is told (if he subscribed), once per token and month. */
async function tokenQuotaReached(deps: RulesDeps, data: Record<string, unknown>, at: string): Promise<void> {
  const token = (data.token ?? {}) as Record<string, unknown>;
  const owner = str(data.user_id);
  if (!owner) return;
  const resets = str(data.resets_at);
  await send(
    deps,
    "token.quota_reached",
    {
      topic: "token.quota_reached",
      title: `Your API token ${str(token.name) || "?"} used its monthly quota`,
      text: `It made its ${String(data.quota ?? "?")} requests of ${str(data.month)}; further requests are refused until ${resets ? `${resets.slice(0, 10)} (UTC)` : "the month turns"}, unless you raise its quota on the API tokens page.`,
      since: at,
      link: "/tokens",
      tone: "bad",
    },
    null,
    { onlyUser: owner },
  );
}

/** The last 4 characters of a code, whatever the event carried (never more). */
function last4(data: Record<string, unknown>): string {
  // code_last4 is already at most 4 (lib/contract/purchase-code.ts); cut again so a full code never passes.
  return Array.from(str(data.code_last4)).slice(-4).join("") || "????";
}

async function purchaseEvent(
  deps: RulesDeps,
  topic: "purchase.revoked" | "purchase.support_expiring" | "licence.limit_reached",
  data: Record<string, unknown>,
  at: string,
): Promise<void> {
  const item = (data.item ?? {}) as Record<string, unknown>;
  const itemName = str(item.name) || (data.item_id !== undefined ? `item ${String(data.item_id)}` : "an item");
  const code = `…${last4(data)}`;
  const messages: Record<typeof topic, { title: string; text: string; link: string; kind: string }> = {
    "purchase.revoked": {
      title: `Purchase ${code} was revoked`,
      text: `The item service no longer accepts the purchase code ending ${last4(data)}, valid before: probably a refunded or reversed sale.`,
      link: "/purchases/history",
      kind: "purchase.revoked",
    },
    "purchase.support_expiring": {
      title: `Support for purchase ${code} of ${itemName} ends soon`,
      text: `Its support ends on ${str(data.supported_until).slice(0, 10)} (${String(data.days_left ?? "?")} days left).`,
      link: "/purchases/support-ending",
      kind: "purchase.support_expiring",
    },
    "licence.limit_reached": {
      title: `Purchase ${code} reached its activation limit`,
      text: `A copy was refused: ${String(data.used ?? "?")} of ${String(data.allowed ?? "?")} activations are in use.`,
      link: "/admin/licences",
      kind: "licence.limit_reached",
    },
  };
  const { title, text, link } = messages[topic];
  await send(
    deps,
    topic,
    { topic, title, text, since: at, link, tone: topic === "purchase.support_expiring" ? "info" : "bad" },
    topic,
  );
}
