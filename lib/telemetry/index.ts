// Traces (OpenTelemetry): what the rooms call to make spans, read the trace id and pass the trace on. Tracing is on
// only when instrumentation.ts started the SDK (./start.ts, OTEL_EXPORTER_OTLP_ENDPOINT set); until then every
// function here is a flag check and nothing more: no span, no context, no header. No `server-only`: the log and
// the store use it, and it holds no key. Attribute values are fixed words, numbers and names chosen by the
// callers — never a URL's query, a header, a code or a token — and every string is redacted all the same.
import { context, propagation, SpanKind, SpanStatusCode, trace, type Attributes } from "@opentelemetry/api";

import { redact } from "@/lib/log";
import { processSlot } from "@/lib/process-wide";

export { SpanKind };

const onSlot = processSlot<boolean>("telemetry.on");

/** Whether the SDK was started in this process (one flag for every bundle). */
export function tracingOn(): boolean {
  return onSlot.get() === true;
}

/** Set by ./start.ts once the SDK is registered; tests switch it off again. */
export function setTracingOn(on: boolean): void {
  onSlot.set(on ? true : undefined);
}

export type SpanAttributes = Record<string, string | number | boolean | null | undefined>;

/** What a span's body may add to it as it learns more (a status, a cache result, a retry count). */
export interface SpanHandle {
  set(attributes: SpanAttributes): void;
}

const NO_SPAN: SpanHandle = { set: () => {} };

function tracer() {
  return trace.getTracer("gatehouse");
}

/** The attributes as OpenTelemetry takes them: no empty ones, every string redacted and capped. */
export function cleanAttributes(attributes: SpanAttributes): Attributes {
  const clean: Attributes = {};
  for (const [name, value] of Object.entries(attributes)) {
    if (value === null || value === undefined) continue;
    clean[name] = typeof value === "string" ? redact(value).slice(0, 200) : value;
  }
  return clean;
}

export interface SpanOptions {
  /** CLIENT for a call to another service; INTERNAL otherwise. */
  kind?: SpanKind;
  /** A trace of its own (a job's run), not a child of whatever was active when it was started. */
  root?: boolean;
}

/**
 * Runs `fn` in a span named `name` (a fixed word like "upstream.call", never built from input), the child of the
 * active one; the span ends when `fn` settles, marked as an error (the error's name only) when it throws.
 */
export async function inSpan<T>(
  name: string,
  attributes: SpanAttributes,
  fn: (span: SpanHandle) => Promise<T>,
  { kind = SpanKind.INTERNAL, root = false }: SpanOptions = {},
): Promise<T> {
  if (!tracingOn()) return fn(NO_SPAN);
  return tracer().startActiveSpan(name, { kind, root, attributes: cleanAttributes(attributes) }, async (span) => {
    try {
      return await fn({ set: (more) => span.setAttributes(cleanAttributes(more)) });
    } catch (error) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.name : "error" });
      throw error;
    } finally {
      span.end();
    }
  });
}

/**
 * A span for work already done (a store query, timed by the store's own hook): from `startMs` (epoch ms) to now,
 * under the active span. None outside a trace: a query of no request or job (the job runner's polling) is not
 * worth a trace of its own.
 */
export function recordSpan(name: string, startMs: number, attributes: SpanAttributes, failed = false): void {
  if (!tracingOn() || trace.getSpan(context.active()) === undefined) return;
  const span = tracer().startSpan(name, { startTime: startMs, attributes: cleanAttributes(attributes) });
  if (failed) span.setStatus({ code: SpanStatusCode.ERROR });
  span.end();
}

/** The active trace's id (32 hex digits), or null when tracing is off or no span is active. */
export function currentTraceId(): string | null {
  if (!tracingOn()) return null;
  const span = trace.getSpanContext(context.active());
  return span && trace.isSpanContextValid(span) ? span.traceId : null;
}

/** The W3C trace context headers (`traceparent`, `tracestate`) for an outbound call; none when tracing is off. */
export function traceHeaders(): Record<string, string> {
  if (!tracingOn()) return {};
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier;
}
