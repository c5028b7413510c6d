"use client";
// The alerts' filters and pages, as the other lists have them (list-pages.tsx): the URL is the state
// (useListUrl, "server": the page renders the next view), styled fields that apply as they change, the project
// chosen from the projects that have alerts, "Clear the filters", and the page links. On a phone the filters wait
// behind "Filters (N)".
import { FiltersSheet } from "@/components/ui/filters-sheet";
import { SelectField } from "@/components/ui/select-field";
import type { AlertListQuery } from "@/lib/contract/alerts";
import type { Page } from "@/lib/contract/common";
import type { Alert } from "@/lib/contract/history";
import { ALERT_STATUSES } from "@/lib/contract/values";
import { alertListQueryString, listFilters, parseAlertListParams, withChanges } from "@/lib/portal/list-params";
import { useListUrl } from "@/lib/portal/use-list-url";

import { ClearFilters, ListPages, pagingOf } from "../list-pages";
import { AlertsList } from "./alerts-list";

const STATUS_NAMES = { unread: "Unread", acknowledged: "Acknowledged", all: "All" } as const;
const STATUS_OPTIONS = ALERT_STATUSES.map((value) => ({ value, label: STATUS_NAMES[value] }));
const TO_OPTIONS = [
  { value: "decent", label: "Decent" },
  { value: "bad", label: "Bad" },
];

// The alerts' filters, named once; "unread", the status shown by default, is not counted as one.
const FILTERS = listFilters<AlertListQuery>(["status", "project", "to"]);

export function AlertsView({ page, projects }: { page: Page<Alert>; projects: readonly string[] }) {
  const url = useListUrl<AlertListQuery>(parseAlertListParams, alertListQueryString, "server");
  const { query } = url;
  const status = query.status ?? "unread";
  const shown = { ...query, status: status === "unread" ? undefined : status };
  const projectOptions = [...new Set([...projects, ...(query.project ? [query.project] : [])])].map((name) => ({
    value: name,
    label: name,
  }));
  const change = (patch: Partial<AlertListQuery>) => url.push(withChanges(query, patch));

  return (
    <section aria-label="Alerts list" aria-busy={url.pending}>
      <FiltersSheet
        label="Filters"
        activeCount={FILTERS.count(shown)}
        onClear={() => url.push(FILTERS.cleared(query))}
        showLabel={`Show ${page.meta.total} ${page.meta.total === 1 ? "alert" : "alerts"}`}
      >
        <SelectField
          name="status"
          label="Status"
          options={STATUS_OPTIONS}
          value={status}
          onChange={(event) =>
            change({ status: event.target.value === "unread" ? undefined : (event.target.value as typeof status) })
          }
        />
        <SelectField
          name="project"
          label="Project"
          emptyOption="All projects"
          options={projectOptions}
          value={query.project ?? ""}
          onChange={(event) => change({ project: event.target.value || undefined })}
        />
        <SelectField
          name="to"
          label="Dropped to"
          emptyOption="Any result"
          options={TO_OPTIONS}
          value={query.to ?? ""}
          onChange={(event) => change({ to: (event.target.value || undefined) as AlertListQuery["to"] })}
        />
      </FiltersSheet>
      <ClearFilters url={url} shown={FILTERS.filtered(shown)}>
        Clear the filters
      </ClearFilters>
      <AlertsList
        alerts={page.data}
        total={page.meta.total}
        showAcknowledgeAll={status !== "acknowledged" && page.meta.total > 0}
      />
      <ListPages meta={page.meta} failed={false} label="Alerts pages" {...pagingOf(url, query)} />
    </section>
  );
}
