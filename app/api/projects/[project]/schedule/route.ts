import { operations } from "@/lib/api/operations";
import { defineRoute, noContent, ok } from "@/lib/api/route";
import { methodsNotAllowed } from "@/lib/api/methods";
import { scheduledCallsPerMinute } from "@/lib/reports/schedule-budget";
import { deleteSchedule, getSchedule, listRuns, setSchedule } from "@/lib/reports/schedules";

export const GET = defineRoute(operations.projectSchedule, async ({ accounts, params }) => {
  const { callsPerMinute, scheduleMaxShare } = accounts.config.reportHistory;
  const [schedule, runs] = await Promise.all([
    getSchedule(accounts.db, params.project),
    listRuns(accounts.db, params.project),
  ]);
  return ok({
    schedule,
    runs,
    max_share: scheduleMaxShare,
    calls_per_minute: scheduledCallsPerMinute(callsPerMinute, scheduleMaxShare),
  });
});

export const POST = defineRoute(operations.setProjectSchedule, async ({ accounts, params, body, user }) =>
  ok(await setSchedule(accounts.db, params.project, body, user.email)),
);

export const DELETE = defineRoute(operations.deleteProjectSchedule, async ({ accounts, params }) => {
  await deleteSchedule(accounts.db, params.project);
  return noContent();
});

export const { PUT, PATCH, OPTIONS } = methodsNotAllowed(["GET", "POST", "DELETE"]);
