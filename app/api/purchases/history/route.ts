import { operations } from "@/lib/api/operations";
import { defineRoute, methodsNotAllowed } from "@/lib/api/route";
import { listPurchaseHistory } from "@/lib/purchases/history";

/** History pages are 25 rows unless per_page says otherwise. */
const DEFAULT_PER_PAGE = 25;

export const GET = defineRoute(operations.listPurchaseHistory, async ({ accounts, query }) => {
  const { per_page, page: requestedPage, ...filters } = query;
  const perPage = per_page ?? DEFAULT_PER_PAGE;
  const page = requestedPage ?? 1;
  const { rows, total } = await listPurchaseHistory(accounts.db, accounts.config.purchaseCodeHashKey, { ...filters, page, perPage });
  return {
    status: 200,
    json: { data: rows, meta: { page, per_page: perPage, total, last_page: Math.max(1, Math.ceil(total / perPage)) } },
  };
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["GET"]);
