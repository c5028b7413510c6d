import { operations } from "@/lib/api/operations";
import { defineRoute } from "@/lib/api/route";
import { methodsNotAllowed } from "@/lib/api/methods";
import { jobNotFound } from "@/lib/api/purchases";
import { jobVisibility } from "@/lib/purchases/bulk/jobs";
import { findBulkResultsPage } from "@/lib/purchases/bulk/summaries";

export const GET = defineRoute(operations.listBulkJobResults, async ({ server, user, params, query }) => {
  const page = await findBulkResultsPage(server.db, server.config.dataKey, params.id, jobVisibility(user), query, {
    format: server.config.purchases.codeFormat,
  });
  if (!page) throw jobNotFound(params.id);
  return { status: 200, json: page };
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["GET"]);
