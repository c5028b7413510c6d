// What the bulk routes share: who sees which jobs, the allowance refusal in words, and the results as CSV.
import "server-only";

import { ApiError, rateLimited } from "@/lib/api/errors";
import type { BulkJob } from "@/lib/contract/purchases";
import type { User } from "@/lib/auth/users";

import type { AllowanceDecision, JobsPerDayRefusal, JobVisibility } from "./bulk-store";
import { csvLine, CSV_BOM } from "./csv";

/** A user sees his own jobs; an admin sees everyone's. */
export function jobVisibility(user: Pick<User, "id" | "role">): JobVisibility {
  return { userId: user.role === "admin" ? null : user.id };
}

export function jobNotFound(id: string): ApiError {
  return new ApiError("not_found", `There is no bulk job ${id} (jobs are kept 7 days).`);
}

/** A batch over the hourly allowance: refused before anything is checked, with when it could run. */
export function allowanceRefusal(decision: Extract<AllowanceDecision, { allowed: false }>, now = Date.now()): ApiError {
  const { limit, left, needed, runAt } = decision;
  const codes = (n: number) => `${n.toLocaleString("en")} ${n === 1 ? "code" : "codes"}`;
  if (runAt === null) {
    return new ApiError("invalid_input", `Invalid field: codes. See fields for details.`, {
      fields: {
        codes: `This batch has ${codes(needed)} to check, more than the bulk allowance of ${codes(limit)} an hour. Split it into batches of at most ${codes(limit)}.`,
      },
    });
  }
  const seconds = Math.max(1, Math.ceil((runAt.getTime() - now) / 1000));
  const minutes = Math.ceil(seconds / 60);
  const when = `${runAt.toISOString().replace(/\.\d{3}Z$/, "Z")} (in ${minutes} ${minutes === 1 ? "minute" : "minutes"})`;
  const now_ = left > 0 ? `, or send at most ${codes(left)} now` : "";
  return rateLimited(
    `This batch needs ${codes(needed)} but your bulk allowance has ${left.toLocaleString("en")} of ${codes(limit)} left this hour. It can run at ${when}${now_}.`,
    seconds,
  );
}

/** Too many jobs in 24 hours: refused with when the next may start. */
export function jobsPerDayRefusal({ jobsPerDay, runAt }: JobsPerDayRefusal, now = Date.now()): ApiError {
  const seconds = Math.max(1, Math.ceil((runAt.getTime() - now) / 1000));
  const minutes = Math.ceil(seconds / 60);
  return rateLimited(
    `You have started ${jobsPerDay} bulk checks in the last 24 hours, the most one user may. The next can start at ${runAt.toISOString().replace(/\.\d{3}Z$/, "Z")} (in ${minutes} ${minutes === 1 ? "minute" : "minutes"}); until then, put more codes in one check (up to 500).`,
    seconds,
  );
}

const RESULT_COLUMNS = [
  "position",
  "code",
  "occurrences",
  "status",
  "reason",
  "item_id",
  "item_name",
  "license_type",
  "supported_until",
  "checked_at",
  "notes",
] as const;

/** The job's results in batch order; `position` counts from 1, as a person reads the batch. */
export function bulkResultsCsv(job: BulkJob): string {
  let text = CSV_BOM + csvLine(RESULT_COLUMNS);
  for (const result of job.results) {
    text += csvLine([
      result.index + 1,
      result.code,
      result.occurrences,
      result.status,
      result.reason,
      result.item_id,
      result.item_name,
      result.license_type,
      result.supported_until,
      result.checked_at,
      result.notes.join(" "),
    ]);
  }
  return text;
}
