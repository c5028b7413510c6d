// Traces kept in memory for a unit test file: an SDK tracer provider with the W3C propagator, registered and
// switched on before the file's tests and taken down after them (lib/telemetry's flag off, the API's globals freed).
import { context, propagation, trace } from "@opentelemetry/api";
import { core, node, tracing } from "@opentelemetry/sdk-node";
import { afterAll, beforeAll } from "vitest";

import { setTracingOn } from "@/lib/telemetry";

/** The exporter that holds the file's finished spans (`getFinishedSpans()`, `reset()`). */
export function useInMemoryTracing(): tracing.InMemorySpanExporter {
  const exporter = new tracing.InMemorySpanExporter();
  const provider = new node.NodeTracerProvider({ spanProcessors: [new tracing.SimpleSpanProcessor(exporter)] });
  beforeAll(() => {
    provider.register({ propagator: new core.W3CTraceContextPropagator() });
    setTracingOn(true);
  });
  afterAll(async () => {
    setTracingOn(false);
    await provider.shutdown();
    trace.disable();
    context.disable();
    propagation.disable();
  });
  return exporter;
}
