// A durable delivery's attempts as jobs (webhook deliveries, notification deliveries): each attempt is a job due at
// the delivery's next attempt, whose id names the delivery, the attempt and that time — so a delivery queued again
// (a sweep, "Send again") is one job, and a job made stale by another run finds its attempt made and stops. The
// rows of the delivery's own table are the record; a sweep queues again whatever a lost trigger left without a job.
import { z } from "zod";

import { describeError, logEvent } from "@/lib/log";

export const attemptPayload = z.object({ delivery: z.string(), attempts: z.number().int().min(0) });
export type AttemptPayload = z.infer<typeof attemptPayload>;

export type QueueAttempt = (payload: AttemptPayload, options: { id: string; runAt: Date }) => Promise<void>;

/** A delivery whose next attempt is due at `dueAt` (ISO). */
export interface DueAttempt {
  id: string;
  attempts: number;
  dueAt: string;
}

/** The job of the attempt `due` names, its id prefixed with `prefix` ("webhook", "notification"). */
export function attemptJobOf(
  prefix: string,
  due: DueAttempt,
): { payload: AttemptPayload; options: { id: string; runAt: Date } } {
  const runAt = new Date(due.dueAt);
  return {
    payload: { delivery: due.id, attempts: due.attempts },
    options: { id: `${prefix}-${due.id}-${due.attempts}-${runAt.getTime()}`, runAt },
  };
}

/** Queues a job for each attempt (its job already there: nothing); a failure is logged, the sweep tries again. */
export async function queueAttempts(prefix: string, dues: readonly DueAttempt[], queue: QueueAttempt): Promise<void> {
  for (const due of dues) {
    const { payload, options } = attemptJobOf(prefix, due);
    await queue(payload, options).catch((error: unknown) =>
      logEvent("warn", `${prefix}_not_queued`, { delivery: due.id, error: describeError(error) }),
    );
  }
}
