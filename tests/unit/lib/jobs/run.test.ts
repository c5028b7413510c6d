// A job's run with traces on: a trace of its own (not a child of whatever started it), named for the job system,
// with the kind, the retries and what came next; the handler's own spans (a webhook delivery) under it. The run's
// outcomes and retries themselves are tested through both providers in ./index.test.ts.
import { describe, expect, it } from "vitest";
import { z } from "zod";

import { defineJob } from "@/lib/jobs/define";
import { runJob } from "@/lib/jobs/run";
import { inSpan } from "@/lib/telemetry";

import { useInMemoryTracing } from "@/tests/support/tracing";

describe("runJob with traces on", () => {
  const exporter = useInMemoryTracing();

  it("is a trace of its own, with the kind, the retries and the outcome, the handler's spans under it", async () => {
    const kind = defineJob({
      kind: "traced-test",
      payload: z.object({ n: z.number() }),
      concurrency: 1,
      handle: async () => inSpan("webhook.deliver", {}, async () => ({ kind: "retry", afterMs: 5 }) as const),
    });
    // Started while a request's span is active: the job still gets its own trace.
    const next = await inSpan("request", {}, () => runJob(kind as never, { n: 1 }, { id: "j1", retries: 2 }));
    expect(next).toEqual({ kind: "retry", afterMs: 5 });
    const spans = exporter.getFinishedSpans();
    const job = spans.find((s) => s.name === "job.run")!;
    const request = spans.find((s) => s.name === "request")!;
    const delivery = spans.find((s) => s.name === "webhook.deliver")!;
    expect(job.parentSpanContext).toBeUndefined();
    expect(job.spanContext().traceId).not.toBe(request.spanContext().traceId);
    expect(job.attributes).toEqual({
      "gatehouse.job.kind": "traced-test",
      "gatehouse.job.retries": 2,
      "gatehouse.job.outcome": "retry",
    });
    expect(delivery.parentSpanContext?.spanId).toBe(job.spanContext().spanId);
  });
});
