// /reports/{id}: every field of the report, and for those who may change reports: privacy and password,
// "Regenerate results" and delete.
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";

import { AreaNotConfigured } from "@/components/portal/area-not-configured";
import { FailureState } from "@/components/portal/failure-state";
import { PageHeader } from "@/components/ui/page-header";
import { requirePageUser } from "@/lib/auth/current-user";
import { can } from "@/lib/auth/permissions";
import { loadFromUpstream } from "@/lib/portal/failures";
import { getReportsClient } from "@/lib/reports/service";

import { FreshSwrCache } from "../../fresh-swr-cache";
import { ReportDetail } from "./report-detail";

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }): Promise<Metadata> {
  const { id } = await params;
  return { title: /^[1-9]\d{0,14}$/.test(id) ? `Report #${id}` : "Report" };
}

export default async function ReportPage({ params }: { params: Promise<{ id: string }> }) {
  const user = await requirePageUser("reports:read");
  const { id: idParam } = await params;
  // The same rule as the API's path id: a positive whole number; anything else names no report.
  if (!/^[1-9]\d{0,14}$/.test(idParam)) notFound();
  const id = Number(idParam);

  const reports = await getReportsClient();
  if (!reports) return <AreaNotConfigured area="reports" />;

  const loaded = await loadFromUpstream("The report", () => reports.getReport(id));
  if (!loaded.ok && loaded.error.kind === "not_found") notFound();

  return (
    <>
      <PageHeader
        title={loaded.ok ? `Report #${id}` : "Report"}
        description={loaded.ok ? loaded.value.url : undefined}
        back={<Link href="/reports">‹ Reports</Link>}
      />
      {loaded.ok ? (
        <FreshSwrCache>
          <ReportDetail initialReport={loaded.value} canWrite={can(user, "reports:write")} />
        </FreshSwrCache>
      ) : (
        <FailureState failure={loaded.failure} />
      )}
    </>
  );
}
