import { operations } from "@/lib/api/operations";
import { defineRoute, noContent, ok } from "@/lib/api/route";
import { methodsNotAllowed } from "@/lib/api/methods";
import { backgroundCallsPerMinute } from "@/lib/jobs/budget";
import { deleteSchedule, getSchedule, listRuns, setSchedule } from "@/lib/reports/schedules";

export const GET = defineRoute(operations.projectSchedule, async ({ server, params }) => {
  const { callsPerMinute, scheduleMaxShare } = server.config.reports;
  const [schedule, runs] = await Promise.all([
    getSchedule(server.db, params.project),
    listRuns(server.db, params.project),
  ]);
  return ok({
    schedule,
    runs,
    max_share: scheduleMaxShare,
    calls_per_minute: backgroundCallsPerMinute(callsPerMinute, scheduleMaxShare),
  });
});

export const POST = defineRoute(operations.setProjectSchedule, async ({ server, params, body, user }) =>
  ok(await setSchedule(server.db, params.project, body, user.email)),
);

export const DELETE = defineRoute(operations.deleteProjectSchedule, async ({ server, params }) => {
  await deleteSchedule(server.db, params.project);
  return noContent();
});

export const { PUT, PATCH, OPTIONS } = methodsNotAllowed(["GET", "POST", "DELETE"]);
