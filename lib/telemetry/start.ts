// Starts OpenTelemetry's Node SDK (@opentelemetry/sdk-node) when instrumentation.ts is told to (lib/config's
// telemetry settings: OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT set). The SDK is imported
// here, dynamically, so that a server without an endpoint never loads it. Traces only: no metrics (Prometheus has
// them) and no logs (stdout has them); no automatic instrumentation either — Next makes the request's root span,
// and the rooms make theirs through ./index.ts. The SDK reads the standard OTEL_* variables itself (endpoint,
// protocol, headers, sampler, batch delay, resource attributes).
import "server-only";

import type { Attributes, Context, TextMapGetter, TextMapPropagator, TextMapSetter } from "@opentelemetry/api";
import type { NodeSDKConfiguration } from "@opentelemetry/sdk-node";

import { redact, setTraceIdSource } from "@/lib/log";

import { currentTraceId, setTracingOn } from "./index";

/** The subset of Headers a trust decision reads (lib/auth/request.ts's HeaderReader). */
export interface HeaderReader {
  get(name: string): string | null;
}

export interface TracingOptions {
  /** OTLP over HTTP as protobuf (the default) or JSON (OTEL_EXPORTER_OTLP_[TRACES_]PROTOCOL). */
  protocol: "http/protobuf" | "http/json";
  /** service.name when neither OTEL_SERVICE_NAME nor OTEL_RESOURCE_ATTRIBUTES names one; null to leave it to them. */
  serviceName: string | null;
  /**
   * Whether an incoming request's `traceparent` may be continued: only one a trusted proxy passed on (TRUST_PROXY,
   * decided by the caller). Anything else starts a new trace, so a client cannot join or forge another's trace.
   */
  trusted: (headers: HeaderReader) => boolean;
}

/** How many traceparent values written by this process TrustedTraceContext remembers. */
const ISSUED_KEPT = 1024;

/**
 * W3C trace context, believed only from a trusted proxy. Next extracts the request's context with the global
 * propagator before it opens its root span; this one hands the headers to `trusted` first. A traceparent this
 * process wrote itself is believed too: Next passes its proxy.ts pass's span on to the page's render pass in the
 * request's headers, and a page's trace would otherwise break in two.
 */
export class TrustedTraceContext implements TextMapPropagator {
  /** The last traceparent values injected here (oldest first): a Set keeps insertion order. */
  private readonly issued = new Set<string>();

  constructor(
    private readonly inner: TextMapPropagator,
    private readonly trusted: (headers: HeaderReader) => boolean,
  ) {}

  inject(context: Context, carrier: unknown, setter: TextMapSetter): void {
    this.inner.inject(context, carrier, {
      set: (target, key, value) => {
        if (key === "traceparent") this.remember(value);
        setter.set(target, key, value);
      },
    });
  }

  extract(context: Context, carrier: unknown, getter: TextMapGetter): Context {
    const headers: HeaderReader = {
      get: (name) => {
        const value = getter.get(carrier, name);
        return Array.isArray(value) ? value.join(",") : (value ?? null);
      },
    };
    const traceparent = headers.get("traceparent");
    if (traceparent === null) return context;
    const believed = this.issued.has(traceparent) || this.trusted(headers);
    return believed ? this.inner.extract(context, carrier, getter) : context;
  }

  fields(): string[] {
    return this.inner.fields();
  }

  private remember(traceparent: string): void {
    this.issued.add(traceparent);
    if (this.issued.size > ISSUED_KEPT) this.issued.delete(this.issued.values().next().value!);
  }
}

// The SDK's own types (the copies its packages use).
type SpanExporter = NonNullable<NodeSDKConfiguration["traceExporter"]>;
type ReadableSpan = Parameters<SpanExporter["export"]>[0][number];
type ExportResult = Parameters<Parameters<SpanExporter["export"]>[1]>[0];

/** A text as it may leave the process: a URL's query string dropped (area B's key travels there), then redacted. */
export function scrubText(text: string): string {
  return redact(text.replace(/\?\S*/g, ""));
}

function scrubbedAttributes(attributes: Attributes): Attributes {
  const clean: Attributes = {};
  for (const [name, value] of Object.entries(attributes))
    clean[name] = typeof value === "string" ? scrubText(value) : value;
  return clean;
}

/**
 * The exporter's last gate: every span's name and string attributes scrubbed before they are sent — Next's own
 * spans too (its root span's `http.target` is the request's URL with its query). Ours hold no secret to begin with
 * (./index.ts); this is what makes sure. Works on the batch, off the requests' path.
 */
export class ScrubbingExporter implements SpanExporter {
  constructor(private readonly inner: SpanExporter) {}

  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    const scrubbed = spans.map(
      (span) =>
        Object.create(span, {
          name: { value: scrubText(span.name) },
          attributes: { value: scrubbedAttributes(span.attributes) },
        }) as ReadableSpan,
    );
    this.inner.export(scrubbed, done);
  }

  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }

  forceFlush(): Promise<void> {
    return this.inner.forceFlush?.() ?? Promise.resolve();
  }
}

/** Registers the SDK; the answer flushes and stops it (on shutdown, after the requests in flight). */
export async function startTracing(options: TracingOptions): Promise<{ shutdown: () => Promise<void> }> {
  const { NodeSDK, core } = await import("@opentelemetry/sdk-node");
  // Each reads the endpoint, headers, compression and timeout from the OTEL_EXPORTER_OTLP_* variables itself.
  const { OTLPTraceExporter } =
    options.protocol === "http/json"
      ? await import("@opentelemetry/exporter-trace-otlp-http")
      : await import("@opentelemetry/exporter-trace-otlp-proto");
  const sdk = new NodeSDK({
    ...(options.serviceName ? { serviceName: options.serviceName } : {}),
    // Batched as OTEL_BSP_* say (the SDK makes the batch processor around it).
    traceExporter: new ScrubbingExporter(new OTLPTraceExporter()),
    textMapPropagator: new TrustedTraceContext(new core.W3CTraceContextPropagator(), options.trusted),
    instrumentations: [],
    metricReaders: [],
    logRecordProcessors: [],
  });
  sdk.start();
  setTracingOn(true);
  setTraceIdSource(currentTraceId);
  return {
    shutdown: async () => {
      setTraceIdSource(null);
      setTracingOn(false);
      await sdk.shutdown();
    },
  };
}
