import { operations } from "@/lib/api/operations";
import { defineRoute, methodsNotAllowed } from "@/lib/api/route";
import { purchaseHistoryCsv } from "@/lib/purchases/history";

export const GET = defineRoute(operations.exportPurchaseHistory, async ({ accounts, query }) => {
  // The whole selection, whatever page the list was showing.
  const { per_page: _perPage, page: _page, ...filters } = query;
  const today = new Date().toISOString().slice(0, 10);
  return {
    status: 200,
    download: {
      body: purchaseHistoryCsv(accounts.db, accounts.config.purchaseCodeHashKey, filters),
      contentType: "text/csv; charset=utf-8",
      fileName: `purchase-history-${today}.csv`,
    },
  };
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["GET"]);
