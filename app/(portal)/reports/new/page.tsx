import type { Metadata } from "next";
import Link from "next/link";

import { AreaNotConfigured } from "@/components/portal/area-not-configured";
import { PageHeader } from "@/components/ui/page-header";
import { requirePageUser } from "@/lib/auth/current-user";
import { configuredAreas } from "@/lib/portal/areas";

import { NewReportForm } from "./new-report-form";

export const metadata: Metadata = { title: "New report" };

export default async function NewReportPage() {
  await requirePageUser("reports:write");
  if (!(await configuredAreas()).reports) return <AreaNotConfigured area="reports" />;
  return (
    <>
      <PageHeader
        title="New report"
        description="Create a report for a web page. The reports service generates its result."
        back={<Link href="/reports">‹ Reports</Link>}
      />
      <NewReportForm />
    </>
  );
}
