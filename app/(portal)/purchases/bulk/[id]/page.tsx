// /purchases/bulk/{id}: one bulk check — its progress while it runs on the server (polled every second), then
// its results and their CSV. Closing the tab changes nothing: coming back shows the job where it is.
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";

import { AreaNotConfigured } from "@/components/portal/area-not-configured";
import { PageHeader } from "@/components/ui/page-header";
import { requirePageUser } from "@/lib/auth/current-user";
import { configuredAreas } from "@/lib/portal/areas";
import { BULK_JOB_ID_PATTERN } from "@/lib/portal/purchase-bulk";

import { FreshSwrCache } from "../../../fresh-swr-cache";
import { JobView } from "./job-view";

export const metadata: Metadata = { title: "Bulk purchase check" };

export default async function BulkJobPage({ params }: { params: Promise<{ id: string }> }) {
  const user = await requirePageUser("purchases:validate");
  const { id } = await params;
  // The API's rule for a job id (a UUID); anything else names no job.
  if (!BULK_JOB_ID_PATTERN.test(id)) notFound();
  if (!(await configuredAreas()).items) return <AreaNotConfigured area="items" />;
  return (
    <>
      <PageHeader title="Bulk purchase check" back={<Link href="/purchases/bulk">‹ Bulk check</Link>} />
      <FreshSwrCache>
        <JobView id={id.toLowerCase()} showOwner={user.role === "admin"} />
      </FreshSwrCache>
    </>
  );
}
