// /admin/audit: who changed what, when, with what outcome. The first view is read from the store here, in the
// API's shapes; the browser then pages and filters through GET /api/admin/audit.
import type { Metadata } from "next";

import { PageHeader } from "@/components/ui/page-header";
import { auditRecordOutput } from "@/lib/api/accounts";
import type { AuditRecordOutput } from "@/lib/contract/audit";
import type { Page } from "@/lib/contract/common";
import { getAccounts } from "@/lib/auth/access";
import { listAudit } from "@/lib/auth/audit";
import { requirePageUser } from "@/lib/auth/current-user";
import { AUDIT_DEFAULT_PER_PAGE, auditQueryString, parseAuditParams } from "@/lib/portal/audit-params";

import { FreshSwrCache } from "../../fresh-swr-cache";
import { AuditView } from "./audit-view";

export const metadata: Metadata = { title: "Audit log" };

export default async function AuditPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await requirePageUser("audit:read");
  const query = parseAuditParams(await searchParams);
  const { db } = await getAccounts();
  const perPage = query.per_page ?? AUDIT_DEFAULT_PER_PAGE;
  const page = query.page ?? 1;
  const { rows, total } = await listAudit(db, { user: query.user, action: query.action, from: query.from, to: query.to, page, perPage });
  const initialPage: Page<AuditRecordOutput> = {
    data: rows.map(auditRecordOutput),
    meta: { page, per_page: perPage, total, last_page: Math.max(1, Math.ceil(total / perPage)) },
  };
  return (
    <>
      <PageHeader title="Audit log" description="Every change, sign-in and purchase check, newest first." />
      <FreshSwrCache>
        <AuditView initialKey={auditQueryString(query)} initialPage={initialPage} />
      </FreshSwrCache>
    </>
  );
}
