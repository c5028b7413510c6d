// The dashboard: reports by result (in all and per project) and the newest reports, the number of items, and a
// quick purchase check — each shown only to roles that may use it, for configured areas. Every part loads on
// its own (Suspense), so a slow or failing upstream delays or replaces its own card, not the page.
import type { Metadata } from "next";
import Link from "next/link";
import { Suspense } from "react";

import { FailureState } from "@/components/portal/failure-state";
import { ResultBadge } from "@/components/ui/badge";
import { ButtonLink } from "@/components/ui/button-link";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { LocalTime } from "@/components/ui/local-time";
import { PageHeader } from "@/components/ui/page-header";
import { ResultChart } from "@/components/ui/result-chart";
import { SkeletonLine } from "@/components/ui/skeleton";
import { Stat } from "@/components/ui/stat";
import { getAccounts } from "@/lib/auth/access";
import { requirePageUser } from "@/lib/auth/current-user";
import { can } from "@/lib/auth/permissions";
import type { Page } from "@/lib/contract/common";
import type { Report } from "@/lib/contract/reports";
import { configuredAreas } from "@/lib/portal/areas";
import { countResults, DASHBOARD_MAX_PAGES, DASHBOARD_REPORT_LIMIT } from "@/lib/portal/dashboard";
import { loadFromUpstream } from "@/lib/portal/failures";
import { getReportsClient } from "@/lib/reports/service";
import { projectMixes, resultTrend } from "@/lib/reports/trends";
import { trendDaysParam } from "@/lib/portal/trends";
import type { TrendDays } from "@/lib/contract/values";
import { ProjectMixTable } from "@/components/portal/project-mix-table";
import { TrendRange } from "@/components/portal/trend-range";
import { TrendChart, TrendChartPlaceholder } from "@/components/ui/trend-chart";
import { getUpstreams, type ReportsClient } from "@/lib/upstream";

import styles from "./dashboard.module.css";
import { PurchaseChecker } from "./purchases/purchase-checker";

export const metadata: Metadata = { title: "Dashboard" };

const LATEST_COUNT = 6;

export default async function DashboardPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const [user, areas, params] = await Promise.all([requirePageUser(), configuredAreas(), searchParams]);
  const days = trendDaysParam(params);
  const showReports = areas.reports && can(user.role, "reports:read");
  const showItems = areas.items && can(user.role, "items:read");
  const showPurchases = areas.items && can(user.role, "purchases:validate");

  return (
    <>
      <PageHeader title="Dashboard" description={`Signed in as ${user.name}.`} />
      <div className={styles.grid}>
        {showReports ? (
          <Suspense fallback={<LoadingCard title="Reports by result" wide />}>
            <ReportsOverview />
          </Suspense>
        ) : null}
        {showReports ? (
          <Suspense fallback={<TrendsPlaceholder />}>
            <TrendsOverview days={days} />
          </Suspense>
        ) : null}
        {showItems ? (
          <Suspense fallback={<LoadingCard title="Items" />}>
            <ItemsCount />
          </Suspense>
        ) : null}
        {showPurchases ? (
          <Card title="Check a purchase code" asSection className={styles.wide}>
            <PurchaseChecker linkItems={showItems} format={(await getAccounts()).config.purchaseCodeFormat} id="field-dashboard-purchase-code" />
          </Card>
        ) : null}
        {!showReports && !showItems && !showPurchases ? (
          <EmptyState title="Nothing to show yet" headingLevel={2}>
            Your role does not include any part of Gatehouse that is connected right now. Ask an administrator if you need access.
          </EmptyState>
        ) : null}
      </div>
    </>
  );
}

function LoadingCard({ title, wide = false }: { title: string; wide?: boolean }) {
  return (
    <Card title={title} className={wide ? styles.wide : undefined}>
      <p className="visually-hidden" role="status">
        Loading {title.toLowerCase()}…
      </p>
      <SkeletonLine />
      <SkeletonLine />
      <SkeletonLine />
    </Card>
  );
}

/** The newest reports, DASHBOARD_MAX_PAGES pages of 100 at most: enough to count, without reading a huge account. */
async function newestReports(reports: ReportsClient): Promise<{ rows: Report[]; total: number }> {
  const first: Page<Report> = await reports.listReports({ sort_by: "id", sort: "desc", per_page: 100 });
  const pages = Math.min(first.meta.last_page, DASHBOARD_MAX_PAGES);
  const rest = await Promise.all(
    Array.from({ length: pages - 1 }, (_, i) => reports.listReports({ sort_by: "id", sort: "desc", per_page: 100, page: i + 2 })),
  );
  return { rows: [first, ...rest].flatMap((page) => page.data), total: first.meta.total };
}

async function ReportsOverview() {
  const reports = await getReportsClient();
  if (!reports) return null;
  const loaded = await loadFromUpstream("The reports", () => newestReports(reports));
  if (!loaded.ok) {
    return (
      <Card title="Reports" asSection className={styles.wide}>
        <FailureState failure={loaded.failure} headingLevel={3} />
      </Card>
    );
  }
  const { rows, total } = loaded.value;
  if (total === 0) {
    return (
      <Card title="Reports" asSection className={styles.wide}>
        <EmptyState title="No reports yet" headingLevel={3} action={<ButtonLink href="/reports">Go to the reports</ButtonLink>} />
      </Card>
    );
  }
  const partial = total > rows.length;
  const [overall, ...perProject] = countResults(rows, "All reports");
  return (
    <>
      <Card title="Reports by result" asSection className={styles.wide} actions={<ButtonLink href="/reports" size="sm">All reports</ButtonLink>}>
        <ResultChart title={partial ? `The newest ${rows.length} of ${total} reports` : `All ${total} reports`} rows={overall ? [overall] : []} scale="share" />
        <ResultChart title="Per project" rows={perProject} />
        {partial ? (
          <p className={styles.note}>
            Counted from the newest {DASHBOARD_REPORT_LIMIT} reports ({DASHBOARD_MAX_PAGES} pages of 100); filter the reports list for exact
            numbers.
          </p>
        ) : null}
      </Card>
      <Card title="Latest reports" asSection>
        <ul className={styles.latest}>
          {rows.slice(0, LATEST_COUNT).map((report) => (
            <li key={report.id}>
              <Link href={`/reports/${report.id}`} className={styles.latestUrl}>
                {report.url}
              </Link>
              <span className={styles.latestMeta}>
                <ResultBadge result={report.result} /> <LocalTime iso={report.generated_at} missing="Not generated yet" />
              </span>
            </li>
          ))}
        </ul>
      </Card>
    </>
  );
}

const TRENDS_TITLE = "Results over time";

function TrendsPlaceholder() {
  return (
    <Card title={TRENDS_TITLE} className={styles.wide}>
      <TrendChartPlaceholder title="All projects" />
    </Card>
  );
}

/** Results by day from the history Gatehouse keeps, and each project's mix of results. */
async function TrendsOverview({ days }: { days: TrendDays }) {
  const { db } = await getAccounts();
  const [trend, mixes] = await Promise.all([resultTrend(db, { days }), projectMixes(db)]);
  return (
    <Card title={TRENDS_TITLE} asSection className={styles.wide} actions={<TrendRange current={days} href={(d) => `/?days=${d}`} />}>
      <TrendChart title={`All projects, the last ${days} days`} days={trend.days} />
      {mixes.length > 0 ? (
        <ProjectMixTable rows={mixes} caption="Reports per project, by their newest result" />
      ) : (
        <p className={styles.note}>Gatehouse records results as it sees them: open the reports to start the history.</p>
      )}
    </Card>
  );
}

async function ItemsCount() {
  const { items } = await getUpstreams();
  if (!items) return null;
  const loaded = await loadFromUpstream("The items", () => items.listItems());
  return (
    <Card title="Items" asSection actions={<ButtonLink href="/items" size="sm">Browse items</ButtonLink>}>
      {loaded.ok ? (
        <Stat label="Items for sale" value={loaded.value.length.toLocaleString("en")} hint="From the item service" />
      ) : (
        <FailureState failure={loaded.failure} headingLevel={3} />
      )}
    </Card>
  );
}
