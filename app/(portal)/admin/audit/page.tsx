// /admin/audit: who changed what, when, with what outcome. The first view is read from the store here, in the
// API's shapes; the browser then pages and filters through GET /api/admin/audit.
import type { Metadata } from "next";

import { PageHeader } from "@/components/ui/page-header";
import { auditLogPage } from "@/lib/api/accounts";
import { auditStreamsOverview } from "@/lib/audit-streams/service";
import { getServerContext } from "@/lib/auth/access";
import { requirePageUser } from "@/lib/auth/current-user";
import { getPersonTimeZone } from "@/lib/auth/time-zone";
import { auditApiQueryString, parseAuditParams } from "@/lib/portal/audit-params";

import { FreshSwrCache } from "../../fresh-swr-cache";
import { AuditView } from "./audit-view";
import { StreamStatus } from "./stream-status";

export const metadata: Metadata = { title: "Audit log" };

export default async function AuditPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  await requirePageUser("audit:read");
  const query = parseAuditParams(await searchParams);
  const [{ db }, { zone }] = await Promise.all([getServerContext(), getPersonTimeZone()]);
  const [initialPage, streams] = await Promise.all([
    auditLogPage(db, { ...query, time_zone: zone }),
    auditStreamsOverview(),
  ]);
  return (
    <>
      <PageHeader title="Audit log" description="Every change, sign-in and purchase check, newest first." />
      <FreshSwrCache>
        <AuditView initialKey={auditApiQueryString(query, zone)} initialPage={initialPage} />
      </FreshSwrCache>
      <StreamStatus overview={streams} />
    </>
  );
}
