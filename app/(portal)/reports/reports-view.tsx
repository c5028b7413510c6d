"use client";
// The reports list in the browser. The URL holds the view (useListUrl, "shallow": history.pushState, no server
// render); SWR fetches /api/reports for it, keeping the previous rows on screen with a progress bar while the
// next ones load. The server's first view arrives as initialPage, so nothing is fetched at hydration.
import Link from "next/link";

import { EmptyState } from "@/components/ui/empty-state";
import { DataTable, type Column } from "@/components/ui/data-table";
import { LocalTime } from "@/components/ui/local-time";
import { PerPageSelect } from "@/components/ui/per-page-select";
import { PrivacyBadge, ResultBadge, RESULT_LABELS } from "@/components/ui/badge";
import { FiltersSheet } from "@/components/ui/filters-sheet";
import { SearchField } from "@/components/ui/search-field";
import { SelectField } from "@/components/ui/select-field";
import type { Page } from "@/lib/contract/common";
import type { Report, ReportListQuery } from "@/lib/contract/reports";
import {
  listFilters,
  parseReportListParams,
  REPORT_DEFAULTS,
  reportListQueryString,
  reportViewRequest,
  withChanges,
} from "@/lib/portal/list-params";
import { REPORT_RESULTS, type ReportSortField } from "@/lib/contract/values";
import { useListUrl } from "@/lib/portal/use-list-url";

import { ClearFilters, ListCount, ListPages, NoMatches, pagingOf, sortingOf, useListPage } from "../list-pages";
import styles from "../lists.module.css";

export interface ReportsViewProps {
  /** The API query string the server rendered (the SWR key of initialPage). */
  initialKey: string;
  initialPage?: Page<Report>;
  /** Set when the server could not load the first view. */
  initialFailure?: { title: string; message: string };
  projects: readonly string[];
}

const COLUMNS: ReadonlyArray<Column<Report, ReportSortField>> = [
  {
    id: "url",
    header: "URL",
    sortKey: "url",
    rowHeader: true,
    priority: "primary",
    wrap: "wrap",
    cell: (report) => <Link href={`/reports/${report.id}`}>{report.url}</Link>,
  },
  {
    id: "result",
    header: "Result",
    sortKey: "result",
    priority: "primary",
    wrap: "nowrap",
    cell: (report) => <ResultBadge result={report.result} />,
  },
  {
    id: "generated",
    header: "Generated",
    sortKey: "generated_at",
    firstDirection: "desc",
    wrap: "nowrap",
    cell: (report) => <LocalTime iso={report.generated_at} display="both" missing="Not generated yet" />,
  },
  { id: "privacy", header: "Privacy", wrap: "nowrap", cell: (report) => <PrivacyBadge privacy={report.privacy} /> },
  {
    id: "project",
    header: "Project",
    wrap: "wrap",
    cell: (report) => report.project ?? <span className={styles.muted}>None</span>,
  },
];

// The list's filters, named once: "Filters (N)", the filtered state and Clear read them.
const FILTERS = listFilters<ReportListQuery>(["project", "result"], "search");

const RESULT_OPTIONS = REPORT_RESULTS.map((value) => ({ value, label: RESULT_LABELS[value] }));

export function ReportsView({ initialKey, initialPage, initialFailure, projects }: ReportsViewProps) {
  const url = useListUrl<ReportListQuery>(parseReportListParams, reportListQueryString, "shallow");
  const { query } = url;
  // The view as the API is asked for it: with the page's default sort (newest generated first) filled in.
  const list = useListPage<Report>(
    "/api/reports",
    reportListQueryString(reportViewRequest(query)),
    { key: initialKey, page: initialPage, failure: initialFailure },
    "The reports could not be loaded",
    url,
  );
  const { data, isValidating, failure } = list;

  const filtered = FILTERS.filtered(query);
  const projectOptions = [...new Set([...projects, ...(query.project ? [query.project] : [])])].map((name) => ({
    value: name,
    label: name,
  }));
  const perPage = query.per_page ?? REPORT_DEFAULTS.per_page;
  const total = data?.meta.total;

  return (
    <section aria-label="Reports list">
      <FiltersSheet
        label="Search and filters"
        activeCount={FILTERS.count(query)}
        onClear={() => url.push(FILTERS.cleared(query))}
        showLabel={total !== undefined ? `Show ${total} ${total === 1 ? "report" : "reports"}` : undefined}
        search={
          <SearchField
            label="Search by URL"
            value={query.search ?? ""}
            placeholder="e.g. pricing"
            onSearch={(search) => url.replace(withChanges(query, { search: search || undefined }))}
          />
        }
      >
        <SelectField
          name="project"
          label="Project"
          emptyOption="All projects"
          options={projectOptions}
          value={query.project ?? ""}
          onChange={(event) => url.push(withChanges(query, { project: event.target.value || undefined }))}
        />
        <SelectField
          name="result"
          label="Result"
          emptyOption="All results"
          options={RESULT_OPTIONS}
          value={query.result ?? ""}
          onChange={(event) =>
            url.push(withChanges(query, { result: (event.target.value || undefined) as ReportListQuery["result"] }))
          }
        />
        <PerPageSelect value={perPage} onChange={(per_page) => url.push(withChanges(query, { per_page }))} />
      </FiltersSheet>
      <ClearFilters url={url} shown={filtered}>
        Clear search and filters
      </ClearFilters>

      <ListCount loading={isValidating} loadingText="Loading reports…" total={total} one="report" many="reports" />

      <DataTable
        caption="Reports"
        captionHidden
        columns={COLUMNS}
        rowKey={(report) => report.id}
        {...list.table}
        {...sortingOf(url, query, REPORT_DEFAULTS)}
        skeletonRows={Math.min(perPage, 10)}
        empty={
          filtered ? (
            <NoMatches title="No reports match" clearHref={url.hrefFor({})} clearLabel="Clear search and filters">
              Try another search, or another project or result.
            </NoMatches>
          ) : (
            <EmptyState title="No reports yet" headingLevel={2}>
              Reports appear here once they are created.
            </EmptyState>
          )
        }
      />

      <ListPages meta={data?.meta} failed={Boolean(failure)} label="Reports pages" {...pagingOf(url, query)} />
    </section>
  );
}
