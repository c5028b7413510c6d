// The trust of an incoming traceparent: only what the caller's rule (TRUST_PROXY's proxy) vouches for is continued.
import { describe, expect, it } from "vitest";
import { defaultTextMapGetter, defaultTextMapSetter, ROOT_CONTEXT, trace } from "@opentelemetry/api";
import { core } from "@opentelemetry/sdk-node";

import { TrustedTraceContext } from "@/lib/telemetry/start";

const carrier = {
  traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
  "x-forwarded-for": "203.0.113.9",
};

describe("TrustedTraceContext", () => {
  it("continues a trusted request's traceparent", () => {
    const propagator = new TrustedTraceContext(
      new core.W3CTraceContextPropagator(),
      (headers) => headers.get("x-forwarded-for") === "203.0.113.9",
    );
    const extracted = propagator.extract(ROOT_CONTEXT, carrier, defaultTextMapGetter);
    expect(trace.getSpanContext(extracted)?.traceId).toBe("4bf92f3577b34da6a3ce929d0e0e4736");
    expect(propagator.fields()).toContain("traceparent");
  });

  it("ignores an untrusted one: the request starts a new trace", () => {
    const propagator = new TrustedTraceContext(new core.W3CTraceContextPropagator(), () => false);
    expect(propagator.extract(ROOT_CONTEXT, carrier, defaultTextMapGetter)).toBe(ROOT_CONTEXT);
  });

  it("believes a traceparent it wrote itself (Next's hand-over from proxy.ts's pass to the render pass)", () => {
    const propagator = new TrustedTraceContext(new core.W3CTraceContextPropagator(), () => false);
    const ours = trace.setSpanContext(ROOT_CONTEXT, {
      traceId: "0af7651916cd43dd8448eb211c80319c",
      spanId: "b7ad6b7169203331",
      traceFlags: 1,
    });
    const headers: Record<string, string> = {};
    propagator.inject(ours, headers, defaultTextMapSetter);
    expect(headers.traceparent).toBe("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01");
    const extracted = propagator.extract(ROOT_CONTEXT, headers, defaultTextMapGetter);
    expect(trace.getSpanContext(extracted)?.spanId).toBe("b7ad6b7169203331");
  });
});

describe("ScrubbingExporter", () => {
  it("sends each span without a URL's query and with its strings redacted", async () => {
    const { ScrubbingExporter } = await import("@/lib/telemetry/start");
    const { tracing } = await import("@opentelemetry/sdk-node");
    const sink = new tracing.InMemorySpanExporter();
    const provider = new tracing.BasicTracerProvider({
      spanProcessors: [new tracing.SimpleSpanProcessor(new ScrubbingExporter(sink))],
    });
    const span = provider.getTracer("t").startSpan("fetch GET https://api.example/x?api_key=k3y&code=abc", {
      attributes: { "http.target": "/api/purchases?code=abc", "http.url": "https://a/b?api_key=k", n: 3 },
    });
    span.end();
    await provider.forceFlush();
    const [sent] = sink.getFinishedSpans();
    expect(sent!.name).toBe("fetch GET https://api.example/x");
    expect(sent!.attributes).toEqual({ "http.target": "/api/purchases", "http.url": "https://a/b", n: 3 });
    expect(sent!.spanContext().spanId).toBe(span.spanContext().spanId);
    await provider.shutdown();
  });
});
