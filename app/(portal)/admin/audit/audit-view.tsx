"use client";
// The audit log in the browser: filters and pages in the URL (history API), rows from /api/admin/audit.
import Link from "next/link";
import useSWR from "swr";

import { Badge, type BadgeTone } from "@/components/ui/badge";
import { ButtonLink } from "@/components/ui/button-link";
import { DataTable, type Column, type DataTableError } from "@/components/ui/data-table";
import { EmptyState } from "@/components/ui/empty-state";
import { LocalTime } from "@/components/ui/local-time";
import { PerPageSelect } from "@/components/ui/per-page-select";
import { SearchField } from "@/components/ui/search-field";
import { SelectField } from "@/components/ui/select-field";
import { TextField } from "@/components/ui/text-field";
import { Toolbar } from "@/components/ui/toolbar";
import type { AuditRecordOutput, Page } from "@/lib/api/schemas";
import { AUDIT_ACTIONS, type AuditAction, type AuditOutcome } from "@/lib/auth/audit-actions";
import { ApiRequestError } from "@/lib/portal/api-client";
import { AUDIT_ACTION_LABELS, AUDIT_DEFAULT_PER_PAGE, auditQueryString, parseAuditParams, type AuditViewQuery } from "@/lib/portal/audit-params";
import { withChanges } from "@/lib/portal/list-params";
import { useListUrl } from "@/lib/portal/use-list-url";

import { ListPages } from "../../list-pages";
import styles from "../../lists.module.css";

const OUTCOME_TONE: Record<AuditOutcome, BadgeTone> = {
  success: "success",
  failure: "error",
  denied: "warning",
  valid: "success",
  invalid: "warning",
  failed: "error",
};
const ACTION_OPTIONS = AUDIT_ACTIONS.map((action) => ({ value: action, label: AUDIT_ACTION_LABELS[action] }));

function detailText(detail: Record<string, unknown> | null): string {
  if (!detail) return "";
  return Object.entries(detail)
    .map(([key, value]) => `${key}: ${typeof value === "string" ? value : JSON.stringify(value)}`)
    .join(", ");
}

/** "report 42", "project my shop", "user <id>"; a purchase code by its last 4 characters (the rest is hashed). */
function targetText(row: AuditRecordOutput): string {
  if (!row.target) return "—";
  if (row.target.type === "purchase_code") {
    const last4 = row.detail?.last4;
    return typeof last4 === "string" ? `purchase code …${last4}` : "purchase code";
  }
  return `${row.target.type} ${row.target.id}`;
}

const COLUMNS: ReadonlyArray<Column<AuditRecordOutput>> = [
  { id: "at", header: "When", wrap: "nowrap", cell: (row) => <LocalTime iso={row.at} display="both" /> },
  { id: "user", header: "User", wrap: "wrap", cell: (row) => row.user_email ?? <span className={styles.muted}>Unknown</span> },
  { id: "action", header: "Action", rowHeader: true, wrap: "nowrap", cell: (row) => AUDIT_ACTION_LABELS[row.action] ?? row.action },
  { id: "target", header: "Target", wrap: "wrap", cell: (row) => targetText(row) },
  { id: "outcome", header: "Outcome", wrap: "nowrap", cell: (row) => <Badge tone={OUTCOME_TONE[row.outcome]}>{row.outcome}</Badge> },
  { id: "detail", header: "Detail", wrap: "wrap", cell: (row) => detailText(row.detail) },
  { id: "request", header: "Request ID", wrap: "wrap", cell: (row) => (row.request_id ? <code>{row.request_id}</code> : "—") },
];

export function AuditView({ initialKey, initialPage }: { initialKey: string; initialPage: Page<AuditRecordOutput> }) {
  const url = useListUrl<AuditViewQuery>(parseAuditParams, auditQueryString, "shallow");
  const { query } = url;
  const key = auditQueryString(query);
  const { data, error, isValidating, mutate } = useSWR<Page<AuditRecordOutput>, ApiRequestError>(`/api/admin/audit${key}`, {
    fallbackData: key === initialKey ? initialPage : undefined,
  });
  const failure: DataTableError | null = error
    ? { title: "The audit log could not be loaded", message: error.message, requestId: error.requestId, onRetry: () => void mutate() }
    : null;
  const filtered = Boolean(query.user || query.action || query.from || query.to);

  const setDate = (name: "from" | "to", value: string) => {
    // An incomplete date (while typing) is ignored; an empty one removes the bound.
    if (value !== "" && !/^\d{4}-\d{2}-\d{2}$/.test(value)) return;
    url.push(withChanges(query, { [name]: value || undefined }));
  };

  return (
    <section aria-label="Audit log entries">
      <Toolbar label="Filters">
        <SearchField label="User (email or id)" name="user" value={query.user ?? ""} onSearch={(user) => url.replace(withChanges(query, { user: user || undefined }))} />
        <SelectField
          name="action"
          label="Action"
          emptyOption="All actions"
          options={ACTION_OPTIONS}
          value={query.action ?? ""}
          onChange={(event) => url.push(withChanges(query, { action: (event.target.value || undefined) as AuditAction | undefined }))}
        />
        <TextField name="from" label="From (UTC)" type="date" value={query.from ?? ""} onChange={(event) => setDate("from", event.target.value)} />
        <TextField name="to" label="To (UTC)" type="date" value={query.to ?? ""} min={query.from} onChange={(event) => setDate("to", event.target.value)} />
        <PerPageSelect value={query.per_page ?? AUDIT_DEFAULT_PER_PAGE} onChange={(per_page) => url.push(withChanges(query, { per_page }))} />
      </Toolbar>
      {filtered ? (
        <p className={styles.clear}>
          <Link
            href={url.hrefFor({})}
            onNavigate={(event) => {
              event.preventDefault();
              url.push({});
            }}
          >
            Clear the filters
          </Link>
        </p>
      ) : null}
      <p role="status" className="visually-hidden">
        {isValidating ? "Loading the audit log…" : data ? `${data.meta.total} entries` : ""}
      </p>
      <DataTable
        caption="Audit log"
        captionHidden
        columns={COLUMNS}
        rows={data?.data}
        rowKey={(row) => row.id}
        loading={isValidating || url.pending}
        error={failure}
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
      <ListPages
        meta={data?.meta}
        failed={Boolean(failure)}
        label="Audit log pages"
        hrefFor={(page) => url.hrefFor(withChanges(query, { page }))}
        onPageChange={(page) => url.push(withChanges(query, { page }))}
      />
    </section>
  );
}
