// /purchases/bulk/{id}: one bulk check — its progress while it runs on the server (the browser polls every
// second), then its results, 50 a page, filtered and searched with the state in the URL, and their CSV. Closing the tab changes nothing: coming back shows the job where it
// is. The first view is read from the store here, in the API's shape; a job this user may not see is a 404.
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";

import { AreaNotConfigured } from "@/components/portal/area-not-configured";
import { PageHeader } from "@/components/ui/page-header";
import { getServerContext } from "@/lib/auth/access";
import { requirePageUser } from "@/lib/auth/current-user";
import { configuredAreas } from "@/lib/portal/areas";
import { BULK_JOB_ID_PATTERN } from "@/lib/contract/values";
import { jobVisibility } from "@/lib/purchases/bulk/jobs";
import { findBulkResultsPage } from "@/lib/purchases/bulk/summaries";
import { jobResultsApiPath, parseJobResultsParams } from "@/lib/portal/purchase-bulk";

import { FreshSwrCache } from "../../../fresh-swr-cache";
import { JobView } from "./job-view";

export const metadata: Metadata = { title: "Bulk purchase check" };

export default async function BulkJobPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const user = await requirePageUser("purchases:validate");
  const { id: idParam } = await params;
  // The API's rule for a job id (a UUID); anything else names no job.
  if (!BULK_JOB_ID_PATTERN.test(idParam)) notFound();
  if (!(await configuredAreas()).items) return <AreaNotConfigured area="items" />;

  const id = idParam.toLowerCase();
  const { db, config } = await getServerContext();
  // Who sees a job, as the API decides it (lib/purchases/bulk/jobs.ts jobVisibility): its creator, or an admin.
  // The page of results the URL names (page, filter, search), paged on the server like the API's answer.
  const query = parseJobResultsParams(await searchParams);
  const initial = await findBulkResultsPage(db, config.dataKey, id, jobVisibility(user), query, {
    format: config.purchases.codeFormat,
  });
  if (!initial) notFound();
  return (
    <>
      <PageHeader title="Bulk purchase check" back={<Link href="/purchases/bulk">‹ Bulk check</Link>} />
      <FreshSwrCache>
        <JobView
          id={id}
          initialKey={jobResultsApiPath(id, query)}
          initialPage={initial}
          showOwner={user.role === "admin"}
        />
      </FreshSwrCache>
    </>
  );
}
