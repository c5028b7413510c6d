import { operations } from "@/lib/api/operations";
import { accepted, defineRoute, ok } from "@/lib/api/route";
import { methodsNotAllowed } from "@/lib/api/methods";
import { allowanceRefusal, jobsPerDayRefusal } from "@/lib/api/purchases";
import { jobVisibility } from "@/lib/purchases/bulk/jobs";
import { queueBulkJob } from "@/lib/purchases/bulk/queue";
import { createBulkJob } from "@/lib/purchases/bulk/jobs";
import { findBulkJobSummary, listBulkJobs } from "@/lib/purchases/bulk/summaries";

export const GET = defineRoute(operations.listBulkJobs, async ({ server, user }) =>
  ok(await listBulkJobs(server.db, jobVisibility(user))),
);

export const POST = defineRoute(operations.createBulkJob, async ({ server, user, body }) => {
  const { db, config } = server;
  const created = await createBulkJob(db, config.dataKey, {
    user: { id: user.id, email: user.email },
    rawCodes: body.codes,
    limitPerHour: config.purchases.bulkLimitPerHour,
    format: config.purchases.codeFormat,
  });
  if (!created.ok)
    throw "tooManyJobs" in created ? jobsPerDayRefusal(created.tooManyJobs) : allowanceRefusal(created.decision);
  await queueBulkJob(created.id);
  const job = await findBulkJobSummary(db, created.id, { userId: null });
  if (!job) throw new Error(`bulk job ${created.id} vanished right after it was created`);
  return accepted(job);
});

export const { PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["GET", "POST"]);
