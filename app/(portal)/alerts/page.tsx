// /alerts: regression alerts (a report's result dropped), newest first, filtered by status, project and the
// result dropped to (the filters are the URL: a plain GET form), each acknowledged on its own or all at once.
import type { Metadata } from "next";
import Link from "next/link";

import { FiltersSheet } from "@/components/ui/filters-sheet";
import { PageHeader } from "@/components/ui/page-header";
import { listFilters } from "@/lib/portal/list-params";
import { getServerContext } from "@/lib/auth/access";
import { requirePageUser } from "@/lib/auth/current-user";
import { AlertListQuerySchema, type AlertListQuery } from "@/lib/contract/history";
import { ALERT_STATUSES, REPORT_RESULTS } from "@/lib/contract/values";
import { listAlerts } from "@/lib/reports/alerts";

import { AlertsList } from "./alerts-list";
import styles from "./alerts.module.css";

export const metadata: Metadata = { title: "Alerts" };

const STATUS_NAMES = { unread: "Unread", acknowledged: "Acknowledged", all: "All" } as const;

function queryOf(params: Record<string, string | string[] | undefined>): AlertListQuery {
  const first = Object.fromEntries(
    Object.entries(params)
      .map(([name, value]) => [name, Array.isArray(value) ? value[0] : value])
      .filter(([, v]) => v !== undefined && v !== ""),
  );
  const parsed = AlertListQuerySchema.safeParse(first);
  return parsed.success ? parsed.data : {};
}

// The alerts' filters, named once; "unread", the status shown by default, is not counted as one.
const FILTERS = listFilters<AlertListQuery>(["status", "project", "to"]);

export default async function AlertsPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  await requirePageUser("reports:read");
  const query = queryOf(await searchParams);
  const { db } = await getServerContext();
  const page = await listAlerts(db, query);
  const status = query.status ?? "unread";
  const pageHref = (n: number) => {
    const params = new URLSearchParams(Object.entries({ ...query, page: String(n) }).map(([k, v]) => [k, String(v)]));
    return `/alerts?${params.toString()}`;
  };

  return (
    <>
      <PageHeader
        title="Alerts"
        description="A report's result dropped: good to decent or bad, decent to bad. Each project's rule says which drops alert."
      />
      {/* A plain GET form (it works before the scripts load); on a phone it waits behind "Filters (N)". */}
      <FiltersSheet
        label="Filters"
        showLabel={null}
        activeCount={FILTERS.count({ ...query, status: status === "unread" ? undefined : status })}
      >
        <form method="get" action="/alerts" className={styles.filters} aria-label="Filter alerts">
          <label>
            Status{" "}
            <select name="status" defaultValue={status}>
              {ALERT_STATUSES.map((value) => (
                <option key={value} value={value}>
                  {STATUS_NAMES[value]}
                </option>
              ))}
            </select>
          </label>
          <label>
            Project <input name="project" defaultValue={query.project ?? ""} />
          </label>
          <label>
            Dropped to{" "}
            <select name="to" defaultValue={query.to ?? ""}>
              <option value="">Any result</option>
              {REPORT_RESULTS.filter((r) => r !== "good").map((value) => (
                <option key={value} value={value}>
                  {value === "bad" ? "Bad" : "Decent"}
                </option>
              ))}
            </select>
          </label>
          <button type="submit">Filter</button>
          {Object.keys(query).length > 0 ? <Link href="/alerts">Clear the filters</Link> : null}
        </form>
      </FiltersSheet>
      <AlertsList
        alerts={page.data}
        total={page.meta.total}
        showAcknowledgeAll={status !== "acknowledged" && page.meta.total > 0}
      />
      {page.meta.last_page > 1 ? (
        <nav aria-label="Alerts pages" className={styles.pages}>
          {page.meta.page > 1 ? <Link href={pageHref(page.meta.page - 1)}>Previous</Link> : null}
          <span>
            Page {page.meta.page} of {page.meta.last_page}
          </span>
          {page.meta.page < page.meta.last_page ? <Link href={pageHref(page.meta.page + 1)}>Next</Link> : null}
        </nav>
      ) : null}
    </>
  );
}
