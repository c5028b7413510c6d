import { auditRecordOutput } from "@/lib/api/accounts";
import { operations } from "@/lib/api/operations";
import { defineRoute, methodsNotAllowed } from "@/lib/api/route";
import { listAudit } from "@/lib/auth/audit";

/** Audit pages are 25 rows unless per_page says otherwise. */
const DEFAULT_PER_PAGE = 25;

export const GET = defineRoute(operations.listAudit, async ({ accounts, query }) => {
  const perPage = query.per_page ?? DEFAULT_PER_PAGE;
  const page = query.page ?? 1;
  const { rows, total } = await listAudit(accounts.db, { user: query.user, action: query.action, from: query.from, to: query.to, page, perPage });
  return {
    status: 200,
    json: { data: rows.map(auditRecordOutput), meta: { page, per_page: perPage, total, last_page: Math.max(1, Math.ceil(total / perPage)) } },
  };
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["GET"]);
