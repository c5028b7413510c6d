import { operations } from "@/lib/api/operations";
import { accepted, defineRoute } from "@/lib/api/route";
import { methodsNotAllowed } from "@/lib/api/methods";
import { allowanceRefusal, jobNotFound, recheckRefusal } from "@/lib/api/purchases";
import { jobVisibility } from "@/lib/purchases/bulk/jobs";
import { recheckFailedRows } from "@/lib/purchases/bulk/recheck";
import { queueBulkJob } from "@/lib/purchases/bulk/queue";
import { findBulkJobSummary } from "@/lib/purchases/bulk/summaries";

export const POST = defineRoute(operations.recheckBulkJob, async ({ server, user, params }) => {
  const visibility = jobVisibility(user);
  const result = await recheckFailedRows(server.db, params.id, visibility, {
    userId: user.id,
    limitPerHour: server.config.purchases.bulkLimitPerHour,
  });
  if (!result.ok) {
    if ("decision" in result) throw allowanceRefusal(result.decision);
    if ("problem" in result)
      throw result.problem === "not_found" ? jobNotFound(params.id) : recheckRefusal(result.problem);
    throw new Error("a re-check is never refused for the number of jobs a day");
  }
  // The rows are pending in the store again: the job is queued now.
  await queueBulkJob(params.id);
  const job = await findBulkJobSummary(server.db, params.id, visibility);
  if (!job) throw jobNotFound(params.id);
  return accepted({ ...job, rechecked: result.codes });
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["POST"]);
