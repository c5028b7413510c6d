// An OTLP/HTTP trace receiver on a free loopback port, for tests and the benchmark: it answers every POST to
// /v1/traces with 200 and keeps the spans, which the gateway sends as JSON (OTEL_EXPORTER_OTLP_PROTOCOL=http/json).
// No vitest here: scripts/bench uses it as its sink. Stop it with `close()`.
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  /** "" for a root span. */
  parentSpanId: string;
  name: string;
  /** 1 internal, 2 server, 3 client (OTLP's SpanKind). */
  kind: number;
  attributes: Record<string, string | number | boolean>;
  /** service.name and the other resource attributes of the process that sent it. */
  resource: Record<string, string | number | boolean>;
}

export interface OtlpReceiver {
  /** The endpoint to give OTEL_EXPORTER_OTLP_ENDPOINT (the exporter adds /v1/traces). */
  url: string;
  spans(): ReceivedSpan[];
  /** Every body received, as text: for scanning for what must never be sent. */
  bodies(): string[];
  close(): Promise<void>;
}

type OtlpValue = { stringValue?: string; intValue?: number | string; boolValue?: boolean; doubleValue?: number };
type OtlpAttribute = { key: string; value: OtlpValue };
interface OtlpBody {
  resourceSpans?: {
    resource?: { attributes?: OtlpAttribute[] };
    scopeSpans?: {
      spans?: {
        traceId: string;
        spanId: string;
        parentSpanId?: string;
        name: string;
        kind: number;
        attributes?: OtlpAttribute[];
      }[];
    }[];
  }[];
}

function valueOf(value: OtlpValue): string | number | boolean {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  return value.doubleValue ?? "";
}

const attributesOf = (list: OtlpAttribute[] = []) =>
  Object.fromEntries(list.map(({ key, value }) => [key, valueOf(value)]));

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** Starts the receiver; `keep: false` counts nothing and keeps nothing (a sink for the benchmark). */
export async function startOtlpReceiver({ keep = true }: { keep?: boolean } = {}): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const bodies: string[] = [];
  const server = createServer((request, response) => {
    void readBody(request).then((text) => {
      if (keep && request.method === "POST" && request.url === "/v1/traces") {
        bodies.push(text);
        const body = JSON.parse(text) as OtlpBody;
        for (const resourceSpans of body.resourceSpans ?? []) {
          const resource = attributesOf(resourceSpans.resource?.attributes);
          for (const scope of resourceSpans.scopeSpans ?? []) {
            for (const span of scope.spans ?? []) {
              spans.push({
                traceId: span.traceId,
                spanId: span.spanId,
                parentSpanId: span.parentSpanId ?? "",
                name: span.name,
                kind: span.kind,
                attributes: attributesOf(span.attributes),
                resource,
              });
            }
          }
        }
      }
      response.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans: () => [...spans],
    bodies: () => [...bodies],
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
