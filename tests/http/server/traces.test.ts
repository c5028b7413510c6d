// Traces (docs/operations.md#traces): with OTEL_EXPORTER_OTLP_ENDPOINT set, the gateway sends its spans over
// OTLP/HTTP to a receiver this file starts on loopback. A request that calls an upstream is one trace: its upstream
// span's parents lead to the request's root span, the upstream gets the trace's traceparent, the error envelope's
// request id is the trace id, and no key, token or password is in any span. A `traceparent` is continued only
// from the trusted proxy (TRUST_PROXY=1: the request carries the proxy's X-Forwarded-For entry).
import { afterAll, describe, expect, it } from "vitest";

import { assertNoCanary } from "@/tests/support/canary";
import { TEST_ADMIN, TEST_USER_PASSWORD } from "@/tests/support/gateway";
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from "@/tests/support/otlp-receiver";
import { setUpGateway } from "@/tests/support/set-up-gateway";
import { until } from "@/tests/support/until";

let receiver: OtlpReceiver | undefined;
const {
  sandbox,
  gateway,
  client: viewer,
} = setUpGateway({
  signIn: "viewer",
  env: async () => {
    receiver = await startOtlpReceiver();
    return {
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_BSP_SCHEDULE_DELAY: "20",
      TRUST_PROXY: "1",
    };
  },
});
afterAll(() => receiver?.close());

const traceOf = (traceId: string) => receiver!.spans().filter((span) => span.traceId === traceId);

/** The span's ancestors as far as the receiver has them, nearest first. */
function ancestors(span: ReceivedSpan, spans: ReceivedSpan[]): ReceivedSpan[] {
  const chain: ReceivedSpan[] = [];
  let current = span;
  for (;;) {
    const parent = spans.find((candidate) => candidate.spanId === current.parentSpanId);
    if (!parent) return chain;
    chain.push(parent);
    current = parent;
  }
}

/** The request's root span (Next's, a server span) once it is in, and the trace's spans then. */
async function untilRoot(traceId: string, what: string): Promise<{ root: ReceivedSpan; spans: ReceivedSpan[] }> {
  return until(() => {
    const spans = traceOf(traceId);
    const root = spans.find((span) => span.kind === 2 && !spans.some((s) => s.spanId === span.parentSpanId));
    return root && spans.some((span) => span.name === "upstream.call") ? { root, spans } : null;
  }, what);
}

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-0[01]$/;

describe("a request that calls an upstream", () => {
  it("is one trace: the upstream span under the request's root span, with the call's attributes", async () => {
    await sandbox.clearRequests();
    const res = await viewer.request("/api/reports?per_page=25");
    expect(res.status).toBe(200);
    const traceId = res.headers.get("x-request-id")!;
    expect(traceId).toMatch(/^[0-9a-f]{32}$/);

    const { root, spans } = await untilRoot(traceId, "the request's spans at the receiver");
    expect(root.resource["service.name"]).toBe("gatehouse");
    expect(root.name).toMatch(/^GET/);
    // No query string leaves the process, in Next's spans either.
    expect(root.attributes["http.target"]).toBe("/api/reports");
    const call = spans.find((span) => span.name === "upstream.call")!;
    expect(ancestors(call, spans).at(-1)?.spanId).toBe(root.spanId);
    expect(call.kind).toBe(3);
    expect(call.attributes).toMatchObject({
      "gatehouse.upstream.area": "reports",
      "gatehouse.upstream.operation": "reports.list",
      "gatehouse.upstream.breaker": "closed",
      "gatehouse.upstream.retries": 0,
      "http.response.status_code": 200,
    });
    // The cache's verdict is on the read around the call (these tests run with the cache off: "bypass").
    const read = spans.find((span) => span.spanId === call.parentSpanId)!;
    expect(read.name).toBe("upstream.read");
    expect(read.attributes["gatehouse.upstream.cache"]).toBe("bypass");
    // The session check and the store's queries are spans of the same trace.
    const session = spans.find((span) => span.name === "auth.session")!;
    expect(ancestors(session, spans).at(-1)?.spanId).toBe(root.spanId);
    expect(spans.some((span) => span.name === "db SELECT" && span.attributes["db.system.name"] === "sqlite")).toBe(
      true,
    );

    // The upstream was told the trace, with the upstream span as its parent.
    const [sent] = (await sandbox.requests()).filter((request) => request.path.endsWith("/reports"));
    const [, sentTrace, sentParent] = TRACEPARENT.exec(sent!.headers.traceparent ?? "") ?? [];
    expect(sentTrace).toBe(traceId);
    expect(sentParent).toBe(call.spanId);
  });

  it("names its trace in its log line and its error envelope", async () => {
    const res = await viewer.request("/api/reports/999999");
    expect(res.status).toBe(404);
    const traceId = res.json.error.request_id as string;
    expect(traceId).toMatch(/^[0-9a-f]{32}$/);
    const line = await gateway.logLineFor(traceId);
    expect(line.trace_id).toBe(traceId);
    await untilRoot(traceId, "the failed request's trace");
  });
});

describe("a page", () => {
  it("is one trace: proxy.ts's pass and the render under one root span", async () => {
    expect((await viewer.request("/reports")).status).toBe(200);
    const { render, spans } = await until(() => {
      const render = receiver!.spans().find((span) => span.name === "GET /reports" && span.kind === 2);
      return render ? { render, spans: traceOf(render.traceId) } : null;
    }, "the page's render span");
    const root = ancestors(render, spans).at(-1)!;
    expect(root.parentSpanId).toBe("");
    const proxyPass = await until(
      () => traceOf(render.traceId).find((span) => span.name.startsWith("middleware")),
      "proxy.ts's span in the page's trace",
    );
    expect(ancestors(proxyPass, traceOf(render.traceId)).at(-1)?.spanId).toBe(root.spanId);
  });
});

describe("an incoming traceparent", () => {
  const incoming = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

  it("is continued when the trusted proxy passed the request on", async () => {
    const res = await viewer.request("/api/reports", {
      headers: { traceparent: incoming, "x-forwarded-for": "203.0.113.9" },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-request-id")).toBe("4bf92f3577b34da6a3ce929d0e0e4736");
    const { root } = await untilRoot("4bf92f3577b34da6a3ce929d0e0e4736", "the continued trace");
    expect(root.parentSpanId).toBe("00f067aa0ba902b7");
  });

  it("starts a new trace when the request did not come through the proxy", async () => {
    const res = await viewer.request("/api/reports", { headers: { traceparent: incoming.replace("4bf9", "5bf9") } });
    expect(res.status).toBe(200);
    const traceId = res.headers.get("x-request-id")!;
    expect(traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(traceId).not.toBe("5bf92f3577b34da6a3ce929d0e0e4736");
    const { root } = await untilRoot(traceId, "the new trace");
    expect(root.parentSpanId).toBe("");
    expect(traceOf("5bf92f3577b34da6a3ce929d0e0e4736")).toEqual([]);
  });
});

describe("what was sent to the receiver", () => {
  it("holds no upstream key, session cookie or password", async () => {
    // Area B too: its key travels in the query string.
    expect((await viewer.request("/api/items")).status).toBe(200);
    await until(
      () => receiver!.spans().some((span) => span.attributes["gatehouse.upstream.area"] === "items"),
      "an items call's span",
    );
    const sent = receiver!.bodies().join("\n");
    assertNoCanary(sent, "the spans sent to the OTLP receiver");
    const cookieValue = viewer.cookie().split("=")[1]!;
    for (const secret of [cookieValue, TEST_ADMIN.password, TEST_USER_PASSWORD]) expect(sent).not.toContain(secret);
  });
});
