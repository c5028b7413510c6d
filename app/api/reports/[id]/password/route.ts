import { ApiError } from "@/lib/api/errors";
import { operations } from "@/lib/api/operations";
import { defineRoute, ok } from "@/lib/api/route";
import { methodsNotAllowed } from "@/lib/api/methods";
import { revealSharePassword } from "@/lib/reports/share-password";

// A POST, not a GET: revealing a secret is an act (audited), never a link a browser may prefetch or cache.
export const POST = defineRoute(operations.revealReportPassword, async ({ server, params }) => {
  const kept = await revealSharePassword(server.db, params.id, server.config.dataKey);
  if (!kept) {
    throw new ApiError(
      "not_found",
      `Gatehouse holds no page password for report ${params.id}: the reports API never returns one, so only a password set through Gatehouse can be revealed. Set a new one to share the page.`,
    );
  }
  return ok({ report_id: params.id, ...kept });
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["POST"]);
