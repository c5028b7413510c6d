"use client";
// The project page's parts that talk to the API: two days compared, the schedule (set it, run it now, follow
// its runs), and the alert rule.
import Link from "next/link";
import { useState, type FormEvent } from "react";
import useSWR from "swr";

import { Badge, ResultBadge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { DataTable, type Column } from "@/components/ui/data-table";
import { FormErrorBanner } from "@/components/ui/form-error-banner";
import { usePersonTimeZone } from "@/components/person-time-zone";
import { LocalTime, ZonedTime } from "@/components/ui/local-time";
import { RadioGroup } from "@/components/ui/radio-group";
import { SelectField } from "@/components/ui/select-field";
import { TextField } from "@/components/ui/text-field";
import { TIME_ZONE_NOT_FOUND, TimeZoneField } from "@/components/ui/time-zone-field";
import { useToast } from "@/components/ui/toast";
import { useApiAction, useApiForm } from "@/components/use-api-form";
import type { AlertRuleSetting, Compare, CompareRow, Run } from "@/lib/contract/history";
import {
  ALERT_RULE_NAMES,
  ALERT_RULES,
  WEEKDAY_NAMES,
  type AlertRule,
  type RunStatus,
  type ScheduleFrequency,
} from "@/lib/contract/values";
import { resolveTimeZone } from "@/lib/contract/time-zone";

import formStyles from "../../../forms.module.css";
import styles from "./project.module.css";

const api = (project: string, rest: string) => `/api/projects/${encodeURIComponent(project)}/${rest}`;
// Results are kept by UTC day (docs/reports.md), so the days compared are UTC days, and their labels say so.
const isoDay = (date: Date) => date.toISOString().slice(0, 10);

// ---------------------------------------------------------------------------------------------------------
// Compare

export function CompareView({ project }: { project: string }) {
  const today = new Date();
  const [from, setFrom] = useState(isoDay(new Date(today.getTime() - 30 * 86_400_000)));
  const [to, setTo] = useState(isoDay(today));
  const [answer, setAnswer] = useState<Compare | null>(null);
  const { busy, fields, failure, send } = useApiForm({ fieldNames: ["from", "to"] });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const compared = await send<{ data: Compare }>(`${api(project, "compare")}?from=${from}&to=${to}`);
    if (compared) setAnswer(compared.data);
  };

  return (
    <div className={formStyles.form}>
      <form className={styles.row} onSubmit={(event) => void submit(event)} aria-label="Compare two days">
        <TextField
          name="from"
          label="Earlier day (UTC)"
          type="date"
          value={from}
          onChange={(event) => setFrom(event.currentTarget.value)}
          required
          error={fields.from}
        />
        <TextField
          name="to"
          label="Later day (UTC)"
          type="date"
          value={to}
          onChange={(event) => setTo(event.currentTarget.value)}
          required
          error={fields.to}
        />
        <Button type="submit" variant="primary" loading={busy} loadingText="Comparing…">
          Compare
        </Button>
      </form>
      <FormErrorBanner title="The days were not compared" message={failure?.message} requestId={failure?.requestId} />
      {answer ? (
        <section aria-label={`${answer.from} against ${answer.to}`} aria-live="polite">
          <p className={styles.note}>
            From {answer.from} to {answer.to}: {answer.worse.length} worse, {answer.better.length} better, {answer.same}{" "}
            unchanged, {answer.new.length} new.
          </p>
          <div className={styles.lists}>
            <CompareList title="Worse" rows={answer.worse} />
            <CompareList title="Better" rows={answer.better} />
            {answer.new.length > 0 ? <CompareList title="New" rows={answer.new} /> : null}
          </div>
        </section>
      ) : null}
    </div>
  );
}

/** The rows by URL, in their order: several reports of one URL are one entry, told apart by their ids. */
function byUrl(rows: readonly CompareRow[]): Array<{ url: string; reports: CompareRow[] }> {
  const groups = new Map<string, CompareRow[]>();
  for (const row of rows) groups.set(row.url, [...(groups.get(row.url) ?? []), row]);
  return [...groups].map(([url, reports]) => ({ url, reports }));
}

function Change({ row }: { row: CompareRow }) {
  return (
    <>
      {row.from ? <ResultBadge result={row.from} /> : null}
      <span aria-hidden="true">→</span>
      <span className="visually-hidden">{row.from ? "to" : "now"}</span>
      {row.to ? <ResultBadge result={row.to} /> : null}
    </>
  );
}

function CompareList({ title, rows }: { title: string; rows: readonly CompareRow[] }) {
  return (
    <div>
      <h3 className={styles.listTitle}>
        {title} ({rows.length})
      </h3>
      {rows.length === 0 ? (
        <p className={styles.note}>None.</p>
      ) : (
        <ul className={styles.list}>
          {byUrl(rows).map(({ url, reports: [only, ...more] }) =>
            more.length === 0 ? (
              <li key={only!.report_id}>
                <Link href={`/reports/${only!.report_id}`}>{url}</Link>
                <Change row={only!} />
              </li>
            ) : (
              <li key={url}>
                <span>{url}</span>
                <ul className={styles.sameUrl} aria-label={`${more.length + 1} reports of ${url}`}>
                  {[only!, ...more].map((row) => (
                    <li key={row.report_id}>
                      <Link href={`/reports/${row.report_id}`} aria-label={`Report #${row.report_id} of ${url}`}>
                        Report #{row.report_id}
                      </Link>
                      <Change row={row} />
                    </li>
                  ))}
                </ul>
              </li>
            ),
          )}
        </ul>
      )}
    </div>
  );
}

// ---------------------------------------------------------------------------------------------------------
// Schedule

interface ScheduleAnswer {
  schedule: {
    enabled: boolean;
    frequency: ScheduleFrequency;
    weekday: number | null;
    time: string;
    time_zone: string;
    next_run_at: string | null;
    updated_at: string;
    updated_by: string | null;
  } | null;
  runs: Run[];
  max_share: number;
  calls_per_minute: number;
}

const STATUS_LOOK: Record<RunStatus, { tone: "success" | "warning" | "error" | "info" | "neutral"; label: string }> = {
  running: { tone: "info", label: "Running" },
  waiting: { tone: "neutral", label: "Waiting" },
  done: { tone: "success", label: "Done" },
  partial: { tone: "warning", label: "Partly done" },
  skipped: { tone: "neutral", label: "Skipped" },
  failed: { tone: "error", label: "Failed" },
};

/** What a run under way is doing, until it has an outcome. */
const RUN_UNDER_WAY: Partial<Record<RunStatus, string>> = {
  running: "Regenerating…",
  waiting: "Waiting for the reports API's budget: other runs are using it.",
};

// The schedule's fields: a gateway message for one of them shows beside it, and then no banner.
const SCHEDULE_FIELDS = ["enabled", "frequency", "weekday", "time", "time_zone"];

export function SchedulePanel({
  project,
  canWrite,
  initial,
}: {
  project: string;
  canWrite: boolean;
  initial: ScheduleAnswer;
}) {
  const key = api(project, "schedule");
  const { data, mutate } = useSWR<{ data: ScheduleAnswer }>(key, {
    fallbackData: { data: initial },
    // While a run is under way, follow it.
    refreshInterval: (latest) =>
      latest?.data.runs.some((run) => run.status === "running" || run.status === "waiting") ? 1000 : 0,
  });
  const answer = data?.data ?? initial;
  const schedule = answer.schedule;
  const toast = useToast();
  const [frequency, setFrequency] = useState<ScheduleFrequency>(schedule?.frequency ?? "daily");
  const { busy, fields: errors, failure, check, send } = useApiForm({ fieldNames: SCHEDULE_FIELDS });
  const runStart = useApiAction();
  const person = usePersonTimeZone().zone;

  const save = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    // "Berlin" is Europe/Berlin: the field then shows the name that was saved.
    const zoneField = event.currentTarget.elements.namedItem("time_zone") as HTMLInputElement;
    const timeZone = resolveTimeZone(zoneField.value);
    if (!check({ time_zone: timeZone ? undefined : TIME_ZONE_NOT_FOUND })) return;
    zoneField.value = timeZone!;
    const form = new FormData(event.currentTarget);
    const body = {
      enabled: form.get("enabled") === "on",
      frequency,
      ...(frequency === "weekly" ? { weekday: Number(form.get("weekday")) } : {}),
      time: String(form.get("time") ?? ""),
      time_zone: timeZone!,
    };
    if ((await send(key, { method: "POST", body })) === false) return;
    await mutate();
    toast.success(body.enabled ? "Schedule saved." : "Schedule saved, switched off.");
  };

  const runNow = async () => {
    const started = await runStart.send(api(project, "schedule/runs"), {
      method: "POST",
      refresh: mutate,
      onRefused: (error) => toast.error(`The regeneration did not start. ${error.message}`),
    });
    if (started !== false) toast.success("Regeneration started.");
  };

  return (
    <div className={formStyles.form}>
      <p className={styles.note}>
        {schedule?.enabled && schedule.next_run_at ? (
          <>
            {/* In the schedule's zone, and in the reader's when his differs: each says which it is. */}
            Next run: <ZonedTime iso={schedule.next_run_at} zone={schedule.time_zone} />
            {schedule.time_zone === person ? (
              ", your time zone"
            ) : (
              <>
                {" "}
                (<ZonedTime iso={schedule.next_run_at} zone={person} />, your time zone)
              </>
            )}
            .{" "}
          </>
        ) : (
          "No scheduled regeneration. "
        )}
        All runs together, of every project, spend at most {Math.round(answer.max_share * 100)}% of the reports
        API&apos;s rate budget ({Number(answer.calls_per_minute.toFixed(2))} calls a minute): a run waits while others
        use it, and is skipped while the reports API is failing.
      </p>
      {canWrite ? (
        <form noValidate className={formStyles.form} onSubmit={(event) => void save(event)} aria-label="Schedule">
          <FormErrorBanner
            title="The schedule was not saved"
            message={failure?.message}
            requestId={failure?.requestId}
          />
          <label className={styles.row}>
            <input type="checkbox" name="enabled" defaultChecked={schedule?.enabled ?? true} /> Regenerate this
            project&apos;s reports on a schedule
          </label>
          <div className={styles.row}>
            <SelectField
              name="frequency"
              label="How often"
              value={frequency}
              onChange={(event) => setFrequency(event.currentTarget.value === "weekly" ? "weekly" : "daily")}
              options={[
                { value: "daily", label: "Daily" },
                { value: "weekly", label: "Weekly" },
              ]}
              error={errors.frequency}
            />
            {frequency === "weekly" ? (
              <SelectField
                name="weekday"
                label="On"
                defaultValue={String(schedule?.weekday ?? 1)}
                options={WEEKDAY_NAMES.map((name, index) => ({ value: String(index + 1), label: name }))}
                error={errors.weekday}
              />
            ) : null}
            <TextField
              name="time"
              label="At"
              type="time"
              defaultValue={schedule?.time ?? "06:00"}
              required
              error={errors.time}
            />
            <TimeZoneField
              name="time_zone"
              defaultValue={schedule?.time_zone ?? person}
              hint="Type a city or a zone's name, e.g. Berlin; yours by default"
              error={errors.time_zone}
            />
          </div>
          <div className={formStyles.buttons}>
            <Button type="submit" variant="primary" loading={busy} loadingText="Saving…">
              Save schedule
            </Button>
            <Button variant="secondary" loading={runStart.busy} loadingText="Starting…" onClick={() => void runNow()}>
              Run now
            </Button>
          </div>
        </form>
      ) : null}
      <RunsTable runs={answer.runs} />
    </div>
  );
}

// The shared table: on a phone each run is a card (no column cut off), at a desk a table whose scroll area the
// keyboard reaches (axe: scrollable-region-focusable).
const RUN_COLUMNS: ReadonlyArray<Column<Run>> = [
  {
    id: "started",
    header: "Started",
    rowHeader: true,
    priority: "primary",
    wrap: "nowrap",
    cell: (run) => <LocalTime iso={run.started_at} display="both" />,
  },
  { id: "how", header: "How", cell: (run) => (run.trigger === "manual" ? "By hand" : "Scheduled") },
  {
    id: "status",
    header: "Status",
    priority: "primary",
    wrap: "nowrap",
    cell: (run) => <Badge tone={STATUS_LOOK[run.status].tone}>{STATUS_LOOK[run.status].label}</Badge>,
  },
  {
    id: "progress",
    header: "Progress",
    cell: (run) =>
      run.total === null ? "—" : `${run.done} of ${run.total}${run.failed > 0 ? `, ${run.failed} failed` : ""}`,
  },
  { id: "outcome", header: "Outcome", wrap: "wrap", cell: (run) => run.outcome ?? RUN_UNDER_WAY[run.status] ?? "" },
];

function RunsTable({ runs }: { runs: readonly Run[] }) {
  if (runs.length === 0) return <p className={styles.note}>No runs yet.</p>;
  return (
    <DataTable
      caption="Latest runs, newest first"
      captionHidden
      columns={RUN_COLUMNS}
      rows={runs}
      rowKey={(run) => run.id}
    />
  );
}

// ---------------------------------------------------------------------------------------------------------
// Alert rule

export function AlertRuleForm({
  project,
  canWrite,
  initial,
}: {
  project: string;
  canWrite: boolean;
  initial: AlertRuleSetting;
}) {
  const [rule, setRule] = useState<AlertRule>(initial.rule);
  const { busy, fields, failure, send } = useApiForm({ fieldNames: ["rule"] });
  const toast = useToast();
  const options = ALERT_RULES.map((value) => ({ value, label: ALERT_RULE_NAMES[value] }));

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if ((await send(api(project, "alert-rule"), { method: "POST", body: { rule } })) === false) return;
    toast.success(`Alert rule saved: ${ALERT_RULE_NAMES[rule].toLowerCase()}.`);
  };

  return (
    <form className={formStyles.form} onSubmit={(event) => void save(event)} aria-label="Alert rule">
      <FormErrorBanner title="The alert rule was not saved" message={failure?.message} requestId={failure?.requestId} />
      <RadioGroup
        name="rule"
        id={`field-alert-rule`}
        label="Alert when a report's result drops"
        options={options}
        value={rule}
        onChange={(value) => setRule((ALERT_RULES as readonly string[]).includes(value) ? (value as AlertRule) : "any")}
        disabled={!canWrite}
        error={fields.rule}
      />
      {canWrite ? (
        <div className={formStyles.buttons}>
          <Button type="submit" variant="secondary" loading={busy} loadingText="Saving…">
            Save alert rule
          </Button>
        </div>
      ) : null}
      <p className={styles.note}>
        <Link href={`/alerts?project=${encodeURIComponent(project)}`}>This project&apos;s alerts</Link>
      </p>
    </form>
  );
}
