// /purchases/bulk: paste or upload up to 500 purchase codes and check them on the server as a job (closing the
// tab loses nothing), then follow it on /purchases/bulk/{id}. Below the form, the jobs of the last 7 days (first view
// read from the store here, in the API's shape; then refreshed by the browser while one runs).
import type { Metadata } from "next";

import { AreaNotConfigured } from "@/components/portal/area-not-configured";
import { PageHeader } from "@/components/ui/page-header";
import { getServerContext } from "@/lib/auth/access";
import { requirePageUser } from "@/lib/auth/current-user";
import { configuredAreas } from "@/lib/portal/areas";
import { jobVisibility } from "@/lib/purchases/bulk/jobs";
import { listBulkJobs } from "@/lib/purchases/bulk/summaries";

import { FreshSwrCache } from "../../fresh-swr-cache";
import { BulkForm } from "./bulk-form";
import { RecentJobs } from "./recent-jobs";

export const metadata: Metadata = { title: "Bulk purchase check" };

export default async function BulkCheckPage() {
  const user = await requirePageUser("purchases:validate");
  if (!(await configuredAreas()).items) return <AreaNotConfigured area="items" />;
  const { db, config } = await getServerContext();
  // Whose jobs, as the API decides it (lib/purchases/bulk/jobs.ts jobVisibility): his own, or everyone's for an admin.
  const jobs = await listBulkJobs(db, jobVisibility(user));
  return (
    <>
      <PageHeader
        title="Bulk purchase check"
        description="Check many purchase codes at once. The check runs on the server: you can close this tab and come back to it."
      />
      <BulkForm format={config.purchases.codeFormat} />
      <FreshSwrCache>
        <RecentJobs initialJobs={jobs} showOwner={user.role === "admin"} />
      </FreshSwrCache>
    </>
  );
}
