// The event hook: every listener hears an event; one that throws is logged and stops neither the others nor the caller.
import { afterEach, describe, expect, it, vi } from "vitest";

import { emitReportEvent, onReportEvent, type ReportEvent } from "@/lib/reports/events";

const EVENT: ReportEvent = {
  type: "report.result_changed",
  report_id: 7,
  url: "https://acme.io/7",
  project: "acme.io",
  from: "good",
  to: "bad",
  direction: "worse",
  generated_at: "2026-11-24T10:00:00.000Z",
};

const removers: Array<() => void> = [];
afterEach(() => {
  for (const remove of removers.splice(0)) remove();
  vi.restoreAllMocks();
});

describe("emitReportEvent", () => {
  it("hands the event to every listener, past one that fails, and forgets a removed listener", async () => {
    const heard: ReportEvent[] = [];
    const log = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    removers.push(onReportEvent(() => Promise.reject(new Error("webhook down"))));
    const remove = onReportEvent((event) => void heard.push(event));
    await emitReportEvent(EVENT);
    expect(heard).toEqual([EVENT]);
    expect(log.mock.calls.map(([line]) => String(line)).join("")).toContain("report_event_listener_failed");
    remove();
    await emitReportEvent(EVENT);
    expect(heard).toHaveLength(1);
  });
});
