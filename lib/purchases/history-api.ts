// What the history routes share: a page of checks and the CSV download, for the list (GET, filters in the
// query) and the search by full code (POST, everything in the body, so the code is never in a URL).
import "server-only";

import type { Reply } from "@/lib/api/route";
import type { Accounts } from "@/lib/auth/access";

import { listPurchaseHistory, purchaseHistoryCsv, type PurchaseHistoryFilters } from "./history";

/** History pages are 25 rows unless per_page says otherwise. */
export const HISTORY_DEFAULT_PER_PAGE = 25;

type Paged = PurchaseHistoryFilters & { page?: number; per_page?: number };

export async function historyPage(accounts: Accounts, { page: requestedPage, per_page, ...filters }: Paged): Promise<Reply> {
  const perPage = per_page ?? HISTORY_DEFAULT_PER_PAGE;
  const page = requestedPage ?? 1;
  const { rows, total } = await listPurchaseHistory(accounts.db, accounts.config.purchaseCodeHashKey, { ...filters, page, perPage });
  return {
    status: 200,
    json: { data: rows, meta: { page, per_page: perPage, total, last_page: Math.max(1, Math.ceil(total / perPage)) } },
  };
}

/** The whole selection as CSV, whatever page the list was showing. */
export function historyCsv(accounts: Accounts, { page: _page, per_page: _perPage, ...filters }: Paged): Reply {
  const today = new Date().toISOString().slice(0, 10);
  return {
    status: 200,
    download: {
      body: purchaseHistoryCsv(accounts.db, accounts.config.purchaseCodeHashKey, filters),
      contentType: "text/csv; charset=utf-8",
      fileName: `purchase-history-${today}.csv`,
    },
  };
}
