"use client";
// The audit log in the browser: filters and pages in the URL (history API), rows from /api/admin/audit.

import { usePersonTimeZone } from "@/components/person-time-zone";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { ButtonLink } from "@/components/ui/button-link";
import { buttonClassName } from "@/components/ui/button-styles";
import { DataTable, type Column } from "@/components/ui/data-table";
import { EmptyState } from "@/components/ui/empty-state";
import { LocalTime } from "@/components/ui/local-time";
import { PerPageSelect } from "@/components/ui/per-page-select";
import { SearchField } from "@/components/ui/search-field";
import { SelectField } from "@/components/ui/select-field";
import { FiltersSheet } from "@/components/ui/filters-sheet";
import type { AuditRecordOutput } from "@/lib/contract/audit";
import type { Page } from "@/lib/contract/common";
import { AUDIT_ACTIONS, DEFAULT_PER_PAGE, type AuditAction, type AuditOutcome } from "@/lib/contract/values";
import { AUDIT_OUTCOME_LABELS, purchaseCodeText } from "@/lib/auth/audit-text";
import {
  AUDIT_ACTION_LABELS,
  auditApiQueryString,
  auditExportHref,
  auditQueryString,
  parseAuditParams,
  type AuditViewQuery,
} from "@/lib/portal/audit-params";
import { listFilters, withChanges } from "@/lib/portal/list-params";
import { useListUrl } from "@/lib/portal/use-list-url";

import { ClearFilters, DayRange, ListPages, pagingOf, useListPage } from "../../list-pages";
import styles from "../../lists.module.css";
import auditStyles from "./audit.module.css";

const OUTCOME_TONE: Record<AuditOutcome, BadgeTone> = {
  success: "success",
  failure: "error",
  denied: "warning",
  valid: "success",
  invalid: "warning",
  failed: "error",
};
const ACTION_OPTIONS = AUDIT_ACTIONS.map((action) => ({ value: action, label: AUDIT_ACTION_LABELS[action] }));

/** Who acted, by name; the email and raw id one hover away. */
function Actor({ row }: { row: AuditRecordOutput }) {
  if (!row.user_email && !row.user_id) return <span className={styles.muted}>Unknown</span>;
  const raw = [row.user_email, row.user_id].filter(Boolean).join(" · ");
  return (
    <span title={raw}>
      {row.user_name ?? row.user_email}
      {row.user_name && row.user_email ? <span className={auditStyles.secondary}>{row.user_email}</span> : null}
    </span>
  );
}

/** What the row is about, by name (a report's URL, a user's name); the raw id one hover away. */
function Target({ row }: { row: AuditRecordOutput }) {
  const { target } = row;
  if (!target) return null;
  switch (target.type) {
    case "report":
      return <span title={`Report ${target.id}`}>{target.label ?? `Report ${target.id}`}</span>;
    case "project":
      return <span title={`Project ${target.id}`}>Project {target.id}</span>;
    case "user":
      return (
        <span title={[target.label, target.id].filter(Boolean).join(" · ")}>
          {target.name ?? target.label ?? "A user no longer in Gatehouse"}
        </span>
      );
    case "notification_channel":
      return <span title={`Channel ${target.id}`}>{target.label ?? "A notification channel"}</span>;
    case "upstream_area":
      return <span>{target.id === "reports" ? "The reports API (area A)" : "The item API (area B)"}</span>;
    case "purchase_code":
      return (
        <span title={`Fingerprint ${target.id}`}>
          {purchaseCodeText(row.detail).replace(/^./, (c) => c.toUpperCase())}
        </span>
      );
  }
}

function When({ row }: { row: AuditRecordOutput }) {
  return (
    <>
      {/* The age on a line of its own: "(2 minutes ago)" beside the time wrapped a phone's card once it hydrated
          (the server renders the time in UTC, one line), and the card moved. */}
      <LocalTime iso={row.at} display="short" />{" "}
      <span className={auditStyles.secondary}>
        <LocalTime iso={row.at} />
      </span>
      {row.count > 1 ? (
        <span className={auditStyles.secondary}>
          {row.count.toLocaleString("en")} times, the last at{" "}
          {row.last_at ? <LocalTime iso={row.last_at} display="datetime" /> : "—"}
        </span>
      ) : null}
    </>
  );
}

function What({ row }: { row: AuditRecordOutput }) {
  return (
    <>
      <span className={auditStyles.action}>{AUDIT_ACTION_LABELS[row.action] ?? row.action}</span>
      {row.target && row.target.type !== "purchase_code" ? (
        <span className={auditStyles.target}>
          <Target row={row} />
        </span>
      ) : null}
      {row.summary ? <span className={auditStyles.summary}>{row.summary}</span> : null}
      {row.request_id ? (
        <span className={auditStyles.request} title={`Request ${row.request_id}`}>
          Request <code>{row.request_id.slice(0, 8)}</code>
        </span>
      ) : null}
    </>
  );
}

// Four columns that fit 1280 px with any content: the date and the badge never wrap, who acted ends in an ellipsis
// (the email and id in its title), what happened wraps within its column. On a phone each row is a card led by
// what happened and its outcome.
const COLUMNS: ReadonlyArray<Column<AuditRecordOutput>> = [
  {
    id: "at",
    header: "When",
    wrap: "nowrap",
    fixedOrder: { direction: "desc", text: "Newest first" },
    cell: (row) => <When row={row} />,
  },
  { id: "user", header: "Who", wrap: "truncate", cell: (row) => <Actor row={row} /> },
  { id: "what", header: "What", rowHeader: true, priority: "primary", cell: (row) => <What row={row} /> },
  {
    id: "outcome",
    header: "Outcome",
    priority: "primary",
    wrap: "nowrap",
    cell: (row) => <Badge tone={OUTCOME_TONE[row.outcome]}>{AUDIT_OUTCOME_LABELS[row.outcome]}</Badge>,
  },
];

// The log's filters, named once: "Filters (N)" and the filtered state read them.
const FILTERS = listFilters<AuditViewQuery>(["user", "action", "from", "to"]);

export function AuditView({ initialKey, initialPage }: { initialKey: string; initialPage: Page<AuditRecordOutput> }) {
  const url = useListUrl<AuditViewQuery>(parseAuditParams, auditQueryString, "shallow");
  const { query } = url;
  const { zone } = usePersonTimeZone();
  const list = useListPage<AuditRecordOutput>(
    "/api/admin/audit",
    auditApiQueryString(query, zone),
    { key: initialKey, page: initialPage },
    "The audit log could not be loaded",
    url,
  );
  const { data, isValidating, failure } = list;
  const filtered = FILTERS.filtered(query);

  return (
    <section aria-label="Audit log entries">
      <FiltersSheet
        label="Filters"
        activeCount={FILTERS.count(query)}
        onClear={() => url.push({})}
        showLabel={data ? `Show ${data.meta.total} ${data.meta.total === 1 ? "entry" : "entries"}` : undefined}
      >
        <SearchField
          label="User (email or id)"
          name="user"
          value={query.user ?? ""}
          onSearch={(user) => url.replace(withChanges(query, { user: user || undefined }))}
        />
        <SelectField
          name="action"
          label="Action"
          emptyOption="All actions"
          options={ACTION_OPTIONS}
          value={query.action ?? ""}
          onChange={(event) =>
            url.push(withChanges(query, { action: (event.target.value || undefined) as AuditAction | undefined }))
          }
        />
        <DayRange
          zone={zone}
          from={query.from}
          to={query.to}
          onChange={(name, value) => url.push(withChanges(query, { [name]: value }))}
        />
        <PerPageSelect
          value={query.per_page ?? DEFAULT_PER_PAGE.audit}
          onChange={(per_page) => url.push(withChanges(query, { per_page }))}
        />
      </FiltersSheet>
      <ClearFilters url={url} shown={filtered}>
        Clear the filters
      </ClearFilters>
      {/* Plain links, never prefetched: each download is an audited export of every entry the filters select. */}
      <p className={auditStyles.downloads}>
        Download {filtered ? "these entries" : "every entry"}:{" "}
        <a className={buttonClassName({ variant: "secondary", size: "sm" })} href={auditExportHref(query, zone, "csv")}>
          CSV
        </a>{" "}
        <a
          className={buttonClassName({ variant: "secondary", size: "sm" })}
          href={auditExportHref(query, zone, "ndjson")}
        >
          NDJSON
        </a>
      </p>
      <p role="status" className="visually-hidden">
        {isValidating ? "Loading the audit log…" : data ? `${data.meta.total} entries` : ""}
      </p>
      <DataTable
        caption="Audit log"
        captionHidden
        columns={COLUMNS}
        rowKey={(row) => row.id}
        {...list.table}
        empty={
          <EmptyState
            title={filtered ? "No entries match" : "No entries yet"}
            headingLevel={2}
            action={filtered ? <ButtonLink href={url.hrefFor({})}>Clear the filters</ButtonLink> : undefined}
          >
            {filtered ? "Try another user, action or dates." : "Changes and sign-ins appear here as they happen."}
          </EmptyState>
        }
      />
      <ListPages meta={data?.meta} failed={Boolean(failure)} label="Audit log pages" {...pagingOf(url, query)} />
    </section>
  );
}
