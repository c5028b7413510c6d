import { auditExport } from "@/lib/api/audit-export";
import { methodsNotAllowed } from "@/lib/api/methods";
import { operations } from "@/lib/api/operations";
import { defineRoute } from "@/lib/api/route";

// Who took a copy of the audit log, and which, is itself a row of it (written as the download starts).
export const GET = defineRoute(operations.exportAudit, async ({ server, query, audit }) => {
  const { format, ...filter } = query;
  await audit({
    action: "audit.export",
    target: null,
    outcome: "success",
    detail: {
      format,
      from: filter.from ?? null,
      to: filter.to ?? null,
      time_zone: filter.time_zone ?? null,
      filter_user: filter.user ?? null,
      filter_action: filter.action ?? null,
    },
  });
  return { status: 200, download: auditExport(server.db, filter, format) };
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["GET"]);
