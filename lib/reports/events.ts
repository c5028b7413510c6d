// The internal event hook: the one place a report event leaves lib/reports, to its listeners (tests) and, as
// `report.result_changed`, to the webhooks through lib/events.
import "server-only";

import type { ReportResult } from "@/lib/contract/values";
import { emitEvent } from "@/lib/events";
import { describeError, logEvent } from "@/lib/log";
import { processWide } from "@/lib/process-wide";

export interface ResultChangedEvent {
  type: "report.result_changed";
  report_id: number;
  url: string;
  project: string | null;
  from: ReportResult;
  to: ReportResult;
  /** worse: a drop (good → decent or bad, decent → bad); better otherwise. */
  direction: "better" | "worse";
  generated_at: string;
}

export type ReportEvent = ResultChangedEvent;
export type ReportEventListener = (event: ReportEvent) => void | Promise<void>;

const listeners = () => processWide("reports.eventListeners", () => new Set<ReportEventListener>());

/** Adds a listener; returns the function that removes it. */
export function onReportEvent(listener: ReportEventListener): () => void {
  listeners().add(listener);
  return () => listeners().delete(listener);
}

/** Hands an event to every listener; a listener that fails is logged and never stops the others or the caller. */
export async function emitReportEvent(event: ReportEvent): Promise<void> {
  const { type, ...data } = event;
  await emitEvent({ type, data });
  for (const listener of listeners()) {
    try {
      await listener(event);
    } catch (error) {
      logEvent("error", "report_event_listener_failed", {
        event: event.type,
        report_id: event.report_id,
        error: describeError(error),
      });
    }
  }
}
