import { ApiError } from "@/lib/api/errors";
import { operations } from "@/lib/api/operations";
import { accepted, defineRoute } from "@/lib/api/route";
import { methodsNotAllowed } from "@/lib/api/methods";
import { runProjectNow } from "@/lib/reports/service";

export const POST = defineRoute(operations.runProjectSchedule, async ({ params }) => {
  const run = await runProjectNow(params.project);
  if (!run)
    throw new ApiError(
      "run_in_progress",
      `A regeneration of ${params.project} is running already; wait for it to finish.`,
    );
  return accepted(run);
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["POST"]);
