import { operations } from "@/lib/api/operations";
import { defineRoute, ok, type RouteHandler } from "@/lib/api/route";
import { methodsNotAllowed } from "@/lib/api/methods";
import { bulkResultsCsv } from "@/lib/purchases/bulk/summaries";
import { jobVisibility } from "@/lib/purchases/bulk/jobs";
import { jobNotFound } from "@/lib/api/purchases";
import { cancelBulkJob } from "@/lib/purchases/bulk/jobs";
import { findBulkJob, findBulkJobSummary } from "@/lib/purchases/bulk/summaries";

const getJob = defineRoute(operations.getBulkJob, async ({ server, user, params }) => {
  const job = await findBulkJob(server.db, server.config.dataKey, params.id, jobVisibility(user), {
    format: server.config.purchases.codeFormat,
  });
  if (!job) throw jobNotFound(params.id);
  return ok(job);
});

const exportJob = defineRoute(operations.exportBulkJob, async ({ server, user, params, query }) => {
  const job = await findBulkJob(server.db, server.config.dataKey, params.id, jobVisibility(user), {
    format: server.config.purchases.codeFormat,
  });
  if (!job) throw jobNotFound(params.id);
  return {
    status: 200,
    download: {
      body: bulkResultsCsv(job, query.time_zone),
      contentType: "text/csv; charset=utf-8",
      fileName: `bulk-check-${job.id}.csv`,
    },
  };
});

/** One dynamic segment serves both /bulk/{id} and /bulk/{id}.csv. */
export const GET: RouteHandler = async (request, context) => {
  const { id } = await context.params;
  return (typeof id === "string" && id.toLowerCase().endsWith(".csv") ? exportJob : getJob)(request, context);
};

export const DELETE = defineRoute(operations.cancelBulkJob, async ({ server, user, params }) => {
  const visibility = jobVisibility(user);
  if (!(await cancelBulkJob(server.db, params.id, visibility))) throw jobNotFound(params.id);
  const job = await findBulkJobSummary(server.db, params.id, visibility);
  if (!job) throw jobNotFound(params.id);
  return ok(job);
});

export const { POST, PUT, PATCH, OPTIONS } = methodsNotAllowed(["GET", "DELETE"]);
