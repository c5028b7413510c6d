// The rooms' side of traces: with tracing off every call is a flag check (no span, no header, no trace id); with it
// on, spans nest under the active one, outbound headers carry the W3C traceparent, attribute strings are redacted.
import { describe, expect, it } from "vitest";

import { registerSecrets } from "@/lib/log";
import { cleanAttributes, currentTraceId, inSpan, recordSpan, traceHeaders, tracingOn } from "@/lib/telemetry";

import { useInMemoryTracing } from "@/tests/support/tracing";

describe("with tracing off", () => {
  it("runs the work without a span, header or trace id", async () => {
    expect(tracingOn()).toBe(false);
    let seen: string | null = "unset";
    const answer = await inSpan("work", { a: 1 }, async (span) => {
      span.set({ b: 2 });
      seen = currentTraceId();
      return 42;
    });
    expect(answer).toBe(42);
    expect(seen).toBeNull();
    expect(traceHeaders()).toEqual({});
  });
});

describe("with tracing on", () => {
  const exporter = useInMemoryTracing();

  it("nests spans, names the trace and passes it on in traceparent", async () => {
    exporter.reset();
    let headers: Record<string, string> = {};
    let traceId: string | null = null;
    await inSpan("outer", {}, async () => {
      traceId = currentTraceId();
      await inSpan("inner", { "gatehouse.upstream.area": "reports" }, async (span) => {
        span.set({ "http.response.status_code": 200, skipped: null });
        headers = traceHeaders();
      });
      recordSpan("db SELECT", Date.now() - 5, { "db.operation.name": "SELECT" });
    });
    const spans = exporter.getFinishedSpans();
    const outer = spans.find((s) => s.name === "outer")!;
    const inner = spans.find((s) => s.name === "inner")!;
    const query = spans.find((s) => s.name === "db SELECT")!;
    expect(traceId).toBe(outer.spanContext().traceId);
    expect(inner.parentSpanContext?.spanId).toBe(outer.spanContext().spanId);
    expect(query.parentSpanContext?.spanId).toBe(outer.spanContext().spanId);
    expect(inner.attributes).toEqual({ "gatehouse.upstream.area": "reports", "http.response.status_code": 200 });
    expect(headers.traceparent).toBe(`00-${traceId}-${inner.spanContext().spanId}-01`);
  });

  it("records no span after the fact outside a trace", () => {
    exporter.reset();
    recordSpan("db SELECT", Date.now() - 5, {});
    expect(exporter.getFinishedSpans()).toEqual([]);
  });

  it("starts a trace of its own for a root span, and marks a failure with the error's name only", async () => {
    exporter.reset();
    await inSpan("outer", {}, async () => {
      await expect(
        inSpan("job.run", {}, () => Promise.reject(new TypeError("secret detail")), { root: true }),
      ).rejects.toThrow("secret detail");
    });
    const job = exporter.getFinishedSpans().find((s) => s.name === "job.run")!;
    expect(job.parentSpanContext).toBeUndefined();
    expect(job.status).toEqual({ code: 2, message: "TypeError" });
  });
});

describe("cleanAttributes", () => {
  it("redacts registered keys and credential patterns, and drops empty values", () => {
    registerSecrets(["telemetry-test-secret-1"]);
    expect(
      cleanAttributes({ a: "x telemetry-test-secret-1 y", b: "GET /x?api_key=abc", c: undefined, d: false }),
    ).toEqual({ a: "x [REDACTED] y", b: "GET /x?api_key=[REDACTED]", d: false });
  });
});
