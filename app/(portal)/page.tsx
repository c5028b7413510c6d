// The dashboard: a quick purchase check and the day's checks, the number of items, the newest reports and
// reports by result (in all and per project), results over time — each shown only to roles that may use it, for
// configured areas, the role's own work first (support and admin: the checker; editor and viewer: the reports). Every part loads on its own (Suspense), so a slow or failing upstream delays or replaces its
// own card, not the page. Each placeholder takes the place of what replaces it (same boxes, same rows), and the
// cards whose height depends on the data come last, so nothing jumps when a card arrives (layout shift ≤ 0.05).
import type { Metadata } from "next";
import Link from "next/link";
import { Fragment, Suspense, type ReactNode } from "react";

import { FailureState } from "@/components/portal/failure-state";
import { ResultBadge } from "@/components/ui/badge";
import { ButtonLink } from "@/components/ui/button-link";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { LocalTime } from "@/components/ui/local-time";
import { PageHeader } from "@/components/ui/page-header";
import { ResultChart, ResultChartPlaceholder } from "@/components/ui/result-chart";
import { Stat } from "@/components/ui/stat";
import { getServerContext } from "@/lib/auth/access";
import { requirePageUser } from "@/lib/auth/current-user";
import { can } from "@/lib/auth/permissions";
import type { Page } from "@/lib/contract/common";
import type { Report } from "@/lib/contract/reports";
import { configuredAreas } from "@/lib/portal/areas";
import {
  countResults,
  DASHBOARD_MAX_PAGES,
  DASHBOARD_LEAD,
  DASHBOARD_MAX_PROJECT_ROWS,
  DASHBOARD_REPORT_LIMIT,
} from "@/lib/portal/dashboard";
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
import { ChecksToday, ChecksTodayPlaceholder } from "./checks-today";
import { PurchaseChecker } from "./purchases/purchase-checker";

export const metadata: Metadata = { title: "Dashboard" };

const LATEST_COUNT = 6;

export default async function DashboardPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const [user, areas, params] = await Promise.all([requirePageUser(), configuredAreas(), searchParams]);
  const days = trendDaysParam(params);
  const showReports = areas.reports && can(user, "reports:read");
  const showItems = areas.items && can(user, "items:read");
  const showPurchases = areas.items && can(user, "purchases:validate");
  const purchases = showPurchases ? (
    <>
      <Card title="Check a purchase code" asSection className={styles.wide}>
        <PurchaseChecker
          linkItems={showItems}
          format={(await getServerContext()).config.purchases.codeFormat}
          id="field-dashboard-purchase-code"
        />
      </Card>
      <Suspense fallback={<ChecksTodayPlaceholder />}>
        <ChecksToday user={user} />
      </Suspense>
    </>
  ) : null;
  const reports = showReports ? (
    <>
      <Suspense fallback={<ReportsPlaceholder />}>
        <ReportsOverview />
      </Suspense>
      <Suspense fallback={<TrendsPlaceholder days={days} />}>
        <TrendsOverview days={days} />
      </Suspense>
    </>
  ) : null;
  const items = showItems ? (
    <Suspense fallback={<ItemsCard />}>
      <ItemsCount />
    </Suspense>
  ) : null;
  // Each role's own work comes first (DASHBOARD_LEAD): a phone user finds it on the first screen.
  const order = DASHBOARD_LEAD[user.role] === "reports" ? [reports, items, purchases] : [purchases, items, reports];

  return (
    <>
      <PageHeader title="Dashboard" description={`Signed in as ${user.name}.`} />
      <div className={styles.grid}>
        {order.map((part, index) => (
          <Fragment key={index}>{part}</Fragment>
        ))}
        {!showReports && !showItems && !showPurchases ? (
          <EmptyState title="Nothing to show yet" headingLevel={2}>
            Your role does not include any part of Gatehouse that is connected right now. Ask an administrator if you
            need access.
          </EmptyState>
        ) : null}
      </div>
    </>
  );
}

/** "Loading …" for screen readers; the placeholder's boxes are hidden from them. */
function Loading({ what }: { what: string }) {
  return (
    <p className="visually-hidden" role="status">
      Loading {what}…
    </p>
  );
}

/** The latest reports' card; while they load (null), LATEST_COUNT boxes that screen readers do not see. */
function LatestReports({ reports }: { reports: Report[] | null }) {
  const loading = reports === null;
  return (
    <Card title="Latest reports" asSection={!loading} className={styles.latestCard}>
      {loading ? <Loading what="the latest reports" /> : null}
      <ul className={styles.latest} aria-hidden={loading || undefined} aria-busy={loading || undefined}>
        {loading
          ? Array.from({ length: LATEST_COUNT }, (_, index) => (
              <li key={index}>
                <span className={`${styles.latestUrl} ${styles.pendingLine}`} />
                <span className={styles.latestMeta}>
                  <span className={styles.pending} />
                </span>
              </li>
            ))
          : reports.map((report) => (
              <li key={report.id}>
                {/* One line each (the full address is the link's name and its tooltip): the card keeps its height. */}
                <Link href={`/reports/${report.id}`} className={styles.latestUrl} title={report.url}>
                  {report.url}
                </Link>
                <span className={styles.latestMeta}>
                  <ResultBadge result={report.result} />{" "}
                  <LocalTime iso={report.generated_at} missing="Not generated yet" />
                </span>
              </li>
            ))}
      </ul>
    </Card>
  );
}

/** The latest reports and reports by result, while the reports load: their boxes at their fullest. */
function ReportsPlaceholder() {
  return (
    <>
      <LatestReports reports={null} />
      <Card
        title="Reports by result"
        className={styles.wide}
        actions={<span className={styles.actionSlot} aria-hidden="true" />}
      >
        <Loading what="reports by result" />
        <ResultChartPlaceholder title="All reports" rows={1} />
        <ResultChartPlaceholder title="Per project" rows={DASHBOARD_MAX_PROJECT_ROWS + 1} />
      </Card>
    </>
  );
}

/** The newest generated reports, DASHBOARD_MAX_PAGES pages of 100 at most: enough to count, without reading a huge account. */
async function newestReports(reports: ReportsClient): Promise<{ rows: Report[]; total: number }> {
  // Newest generated first: "Latest reports" shows when each was generated, so that is its order.
  const first: Page<Report> = await reports.listReports({ sort_by: "generated_at", sort: "desc", per_page: 100 });
  const pages = Math.min(first.meta.last_page, DASHBOARD_MAX_PAGES);
  const rest = await Promise.all(
    Array.from({ length: pages - 1 }, (_, i) =>
      reports.listReports({ sort_by: "generated_at", sort: "desc", per_page: 100, page: i + 2 }),
    ),
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
        <EmptyState
          title="No reports yet"
          headingLevel={3}
          action={<ButtonLink href="/reports">Go to the reports</ButtonLink>}
        />
      </Card>
    );
  }
  const partial = total > rows.length;
  const [overall, ...perProject] = countResults(rows, "All reports");
  return (
    <>
      <LatestReports reports={rows.slice(0, LATEST_COUNT)} />
      <Card
        title="Reports by result"
        asSection
        className={styles.wide}
        actions={
          <ButtonLink href="/reports" size="sm">
            All reports
          </ButtonLink>
        }
      >
        <ResultChart
          title={partial ? `The newest ${rows.length} of ${total} reports` : `All ${total} reports`}
          rows={overall ? [overall] : []}
          scale="share"
        />
        <ResultChart title="Per project" rows={perProject} />
        {partial ? (
          <p className={styles.note}>
            Counted from the newest {DASHBOARD_REPORT_LIMIT} reports ({DASHBOARD_MAX_PAGES} pages of 100); filter the
            reports list for exact numbers.
          </p>
        ) : null}
      </Card>
    </>
  );
}

const TRENDS_TITLE = "Results over time";

function TrendsPlaceholder({ days }: { days: TrendDays }) {
  return (
    <Card
      title={TRENDS_TITLE}
      className={styles.wide}
      actions={<TrendRange current={days} href={(d) => `/?days=${d}`} />}
    >
      <TrendChartPlaceholder title="All projects" />
    </Card>
  );
}

/** Results by day from the history Gatehouse keeps, and each project's mix of results. */
async function TrendsOverview({ days }: { days: TrendDays }) {
  const { db } = await getServerContext();
  const [trend, mixes] = await Promise.all([resultTrend(db, { days }), projectMixes(db)]);
  return (
    <Card
      title={TRENDS_TITLE}
      asSection
      className={styles.wide}
      actions={<TrendRange current={days} href={(d) => `/?days=${d}`} />}
    >
      <TrendChart title={`All projects, the last ${days} days`} days={trend.days} />
      {mixes.length > 0 ? (
        <ProjectMixTable rows={mixes} caption="Reports per project, by their newest result" />
      ) : (
        <p className={styles.note}>Gatehouse records results as it sees them: open the reports to start the history.</p>
      )}
    </Card>
  );
}

const ITEMS_HINT = "From the item service";

/** The items card; without a value, its placeholder (same lines, a grey box for the number). */
function ItemsCard({ children }: { children?: ReactNode }) {
  return (
    <Card
      title="Items"
      asSection={children !== undefined}
      actions={
        <ButtonLink href="/items" size="sm">
          Browse items
        </ButtonLink>
      }
    >
      {children ?? (
        <>
          <Loading what="the items" />
          <div aria-hidden="true" aria-busy="true">
            <Stat label="Items for sale" value={<span className={styles.pending} />} hint={ITEMS_HINT} />
          </div>
        </>
      )}
    </Card>
  );
}

async function ItemsCount() {
  const { items } = await getUpstreams();
  if (!items) return null;
  const loaded = await loadFromUpstream("The items", () => items.listItems());
  return (
    <ItemsCard>
      {loaded.ok ? (
        <Stat label="Items for sale" value={loaded.value.length.toLocaleString("en")} hint={ITEMS_HINT} />
      ) : (
        <FailureState failure={loaded.failure} headingLevel={3} />
      )}
    </ItemsCard>
  );
}
