// Regression alerts: a drop of a report's result (good → decent or bad, decent → bad) makes one alert per
// history row (the row's id is unique among alerts, so seeing the result again, or two instances recording it,
// makes none; a row corrected to another drop renews its alert), unless the project's rule says otherwise (any
// drop / only to bad / off).
import "server-only";

import { sql } from "kysely";

import type { AlertListQuery } from "@/lib/contract/alerts";
import type { Alert, AlertRuleSetting } from "@/lib/contract/history";
import { pageMeta, type Page } from "@/lib/contract/common";
import {
  ALERT_RULES,
  DEFAULT_ALERT_RULE,
  DEFAULT_PER_PAGE,
  type AlertRule,
  type ReportResult,
} from "@/lib/contract/values";
import type { Db } from "@/lib/db";
import type { ReportAlertRow } from "@/lib/db/schema";

import { isDrop, type ResultChange } from "./history";

/** Whether a project's rule asks for an alert on this drop. */
export function ruleWants(rule: AlertRule, to: ReportResult): boolean {
  return rule === "any" || (rule === "to_bad" && to === "bad");
}

const asRule = (value: string | undefined): AlertRule =>
  (ALERT_RULES as readonly string[]).includes(value ?? "") ? (value as AlertRule) : DEFAULT_ALERT_RULE;

/** Makes the alerts of these changes' drops that their projects' rules ask for; returns how many were new or renewed. */
export async function createAlerts(db: Db, changes: readonly ResultChange[], now = new Date()): Promise<number> {
  const drops = changes.filter((change) => isDrop(change.from, change.result));
  if (drops.length === 0) return 0;
  const projects = [...new Set(drops.map((drop) => drop.project).filter((p): p is string => p !== null))];
  const rules = new Map(
    projects.length === 0
      ? []
      : (
          await db
            .selectFrom("report_alert_rules")
            .select(["project", "rule"])
            .where("project", "in", projects)
            .execute()
        ).map((r) => [r.project, asRule(r.rule)]),
  );
  const wanted = drops.filter((drop) =>
    ruleWants(
      drop.project === null ? DEFAULT_ALERT_RULE : (rules.get(drop.project) ?? DEFAULT_ALERT_RULE),
      drop.result,
    ),
  );
  if (wanted.length === 0) return 0;
  const inserted = await db
    .insertInto("report_alerts")
    .values(
      wanted.map((drop) => ({
        history_id: drop.history_id,
        report_id: drop.report_id,
        url: drop.url,
        project: drop.project,
        from_result: drop.from,
        to_result: drop.result,
        generated_at: drop.generated_at,
        created_at: now.toISOString(),
        acknowledged_at: null,
        acknowledged_by: null,
      })),
    )
    // A row that already has an alert got another drop (a result corrected under the same generated_at): the
    // alert becomes that drop, unread again. The same drop again (a second instance) changes nothing.
    .onConflict((conflict) =>
      conflict
        .column("history_id")
        .doUpdateSet(({ ref }) => ({
          from_result: ref("excluded.from_result"),
          to_result: ref("excluded.to_result"),
          created_at: ref("excluded.created_at"),
          acknowledged_at: null,
          acknowledged_by: null,
        }))
        .where(({ eb, ref }) =>
          eb.or([
            eb("report_alerts.from_result", "<>", ref("excluded.from_result")),
            eb("report_alerts.to_result", "<>", ref("excluded.to_result")),
          ]),
        ),
    )
    .returning("id")
    .execute();
  return inserted.length;
}

function toAlert(row: ReportAlertRow): Alert {
  return {
    id: row.id,
    report_id: row.report_id,
    url: row.url,
    project: row.project,
    from: row.from_result as ReportResult,
    to: row.to_result as ReportResult,
    generated_at: row.generated_at,
    created_at: row.created_at,
    acknowledged_at: row.acknowledged_at,
    acknowledged_by: row.acknowledged_by,
  };
}

/** Alerts, newest first, filtered by status (unread by default), project and the result dropped to. */
export async function listAlerts(db: Db, query: AlertListQuery): Promise<Page<Alert>> {
  const perPage = query.per_page ?? DEFAULT_PER_PAGE.alerts;
  const page = query.page ?? 1;
  let base = db.selectFrom("report_alerts");
  const status = query.status ?? "unread";
  if (status === "unread") base = base.where("acknowledged_at", "is", null);
  if (status === "acknowledged") base = base.where("acknowledged_at", "is not", null);
  if (query.project !== undefined) base = base.where("project", "=", query.project);
  if (query.to !== undefined) base = base.where("to_result", "=", query.to);
  const [{ n }] = [await base.select(sql<number>`count(*)`.as("n")).executeTakeFirstOrThrow()];
  const rows = await base
    .selectAll()
    .orderBy("id", "desc")
    .limit(perPage)
    .offset((page - 1) * perPage)
    .execute();
  return { data: rows.map(toAlert), meta: pageMeta(page, perPage, Number(n)) };
}

/** The projects that have alerts, by name: the choices of the alerts list's project filter (no upstream call). */
export async function alertProjects(db: Db): Promise<string[]> {
  const rows = await db
    .selectFrom("report_alerts")
    .select("project")
    .distinct()
    .where("project", "is not", null)
    .orderBy("project", "asc")
    .execute();
  return rows.flatMap((row) => (row.project === null ? [] : [row.project]));
}

export async function unreadAlertCount(db: Db): Promise<number> {
  const row = await db
    .selectFrom("report_alerts")
    .select(sql<number>`count(*)`.as("n"))
    .where("acknowledged_at", "is", null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Acknowledges the named unread alerts, or every unread one, stamped `now` by `by`; returns how many were
 * acknowledged now. The stamp and the person name the acknowledgement for unacknowledgeAlerts (Undo).
 */
export async function acknowledgeAlerts(
  db: Db,
  target: { ids: readonly number[] } | { all: true },
  by: string,
  now = new Date(),
): Promise<number> {
  let update = db
    .updateTable("report_alerts")
    .set({ acknowledged_at: now.toISOString(), acknowledged_by: by })
    .where("acknowledged_at", "is", null);
  if ("ids" in target) update = update.where("id", "in", [...target.ids]);
  const result = await update.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Undoes one acknowledgement: the alerts `by` acknowledged at `at` are unread again; returns how many. */
export async function unacknowledgeAlerts(db: Db, at: string, by: string): Promise<number> {
  const result = await db
    .updateTable("report_alerts")
    .set({ acknowledged_at: null, acknowledged_by: null })
    .where("acknowledged_at", "=", at)
    .where("acknowledged_by", "=", by)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function getAlertRule(db: Db, project: string): Promise<AlertRuleSetting> {
  const row = await db.selectFrom("report_alert_rules").selectAll().where("project", "=", project).executeTakeFirst();
  return row
    ? { project, rule: asRule(row.rule), updated_at: row.updated_at, updated_by: row.updated_by }
    : { project, rule: DEFAULT_ALERT_RULE, updated_at: null, updated_by: null };
}

export async function setAlertRule(
  db: Db,
  project: string,
  rule: AlertRule,
  by: string,
  now = new Date(),
): Promise<AlertRuleSetting> {
  const row = { project, rule, updated_at: now.toISOString(), updated_by: by };
  await db
    .insertInto("report_alert_rules")
    .values(row)
    .onConflict((conflict) =>
      conflict.column("project").doUpdateSet({ rule, updated_at: row.updated_at, updated_by: by }),
    )
    .execute();
  return row;
}
