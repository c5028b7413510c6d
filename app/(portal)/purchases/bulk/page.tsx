// /purchases/bulk: paste or upload up to 500 purchase codes and check them on the server as a job (closing the
// tab loses nothing), then follow it on /purchases/bulk/{id}. Below the form, the jobs of the last 7 days.
import type { Metadata } from "next";

import { AreaNotConfigured } from "@/components/portal/area-not-configured";
import { PageHeader } from "@/components/ui/page-header";
import { requirePageUser } from "@/lib/auth/current-user";
import { configuredAreas } from "@/lib/portal/areas";

import { FreshSwrCache } from "../../fresh-swr-cache";
import { BulkForm } from "./bulk-form";
import { RecentJobs } from "./recent-jobs";

export const metadata: Metadata = { title: "Bulk purchase check" };

export default async function BulkCheckPage() {
  const user = await requirePageUser("purchases:validate");
  if (!(await configuredAreas()).items) return <AreaNotConfigured area="items" />;
  return (
    <>
      <PageHeader
        title="Bulk purchase check"
        description="Check many purchase codes at once. The check runs on the server: you can close this tab and come back to it."
      />
      <BulkForm />
      <FreshSwrCache>
        <RecentJobs showOwner={user.role === "admin"} />
      </FreshSwrCache>
    </>
  );
}
