// /reports: the first view is rendered here, from the reports service directly; the browser then takes over
// (ReportsView: URL state and SWR against /api/reports).
import type { Metadata } from "next";

import { AreaNotConfigured } from "@/components/portal/area-not-configured";
import { ButtonLink } from "@/components/ui/button-link";
import { PageHeader } from "@/components/ui/page-header";
import type { Page } from "@/lib/contract/common";
import type { Report } from "@/lib/contract/reports";
import { requirePageUser } from "@/lib/auth/current-user";
import { can } from "@/lib/auth/permissions";
import { loadFromUpstream } from "@/lib/portal/failures";
import { parseReportListParams, reportListQueryString, reportViewRequest } from "@/lib/portal/list-params";
import { projectNamesForFilter } from "@/lib/portal/projects";
import { getReportsClient } from "@/lib/reports/service";

import { FreshSwrCache } from "../fresh-swr-cache";
import { ReportsView } from "./reports-view";

export const metadata: Metadata = { title: "Reports" };

export default async function ReportsPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const user = await requirePageUser("reports:read");
  const reports = await getReportsClient();
  if (!reports) return <AreaNotConfigured area="reports" />;

  // Newest generated first unless the URL says otherwise (the API's own default is the order of creation).
  const query = reportViewRequest(parseReportListParams(await searchParams));
  const [list, projects] = await Promise.all([
    loadFromUpstream<Page<Report>>("The reports", () => reports.listReports(query)),
    projectNamesForFilter(reports),
  ]);

  return (
    <>
      <PageHeader
        title="Reports"
        description="Every web-page report, newest generated first: search by URL, filter by project and result, sort by any column."
        actions={
          can(user, "reports:write") ? (
            <ButtonLink href="/reports/new" variant="primary">
              New report
            </ButtonLink>
          ) : undefined
        }
      />
      <FreshSwrCache>
        <ReportsView
          initialKey={reportListQueryString(query)}
          initialPage={list.ok ? list.value : undefined}
          initialFailure={list.ok ? undefined : list.failure}
          projects={projects}
        />
      </FreshSwrCache>
    </>
  );
}
