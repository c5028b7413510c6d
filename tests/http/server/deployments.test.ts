// Whole-deployment behaviour, one `next start` at a time: only area B configured, upstreams down, keys
// rejected, demo mode, and a configuration that must stop the start. Every route is exercised in each.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { FIXED_PURCHASE_CODES } from "@/lib/sandbox";

import { CANARY } from "@/tests/support/canary";
import { freePort } from "@/tests/support/processes";
import {
  startGateway,
  startGatewayExpectingFailure,
  type GatewayProcess,
  type SignedInClient,
} from "@/tests/support/gateway";
import { startTestSandbox, type TestSandbox } from "@/tests/support/sandbox";

import { browserRequest, routeCases, withItemId, type RouteCase } from "@/tests/support/route-table";

let sandbox: TestSandbox;

beforeAll(async () => {
  sandbox = await startTestSandbox({
    extraKeys: { reports: [CANARY.reports], items: { [CANARY.items]: "main", [CANARY.itemsEmpty]: "empty" } },
  });
});
afterAll(async () => {
  await sandbox?.close();
});

/**
 * Runs `body` against a gateway started with `env` — with a client signed in as the admin, who may use every
 * route — then checks it leaked no key, and stops it.
 */
async function withGateway(
  env: Record<string, string | undefined>,
  body: (gateway: GatewayProcess, api: SignedInClient) => Promise<void>,
) {
  const gateway = await startGateway(env);
  try {
    await body(gateway, await gateway.signIn("admin"));
    gateway.assertNoKeyLeaked();
  } finally {
    await gateway.stop();
  }
}

const cases = withItemId(routeCases(), 1);

async function everyRoute(api: SignedInClient, filter: (c: RouteCase) => boolean = () => true) {
  const selected = cases.filter(filter);
  const answers = await Promise.all(selected.map((c) => api.request(c.path, browserRequest(c))));
  return selected.map((c, i) => ({ c, res: answers[i]! }));
}

describe("only area B configured", () => {
  it("answers 503 area_not_configured on area A routes, serves area B, and says so in readiness", async () => {
    const env = { ITEMS_API_BASE_URL: sandbox.itemsBaseUrl, ITEMS_API_KEY: CANARY.itemsEmpty };
    await withGateway(env, async (gateway, api) => {
      for (const { c, res } of await everyRoute(api, (c) => c.area === "reports")) {
        expect(res.status, c.name).toBe(503);
        expect(res.json.error.code).toBe("area_not_configured");
        expect(res.json.error.message).toContain("the Upstream connections page (/admin/upstream)");
      }
      // The seller without items: the upstream's "No Items Found" is an empty list.
      const items = await api.request("/api/items");
      expect(items.status).toBe(200);
      expect(items.json).toEqual({ data: [] });
      expect((await api.request("/api/account")).status).toBe(200);

      const ready = await api.request("/api/ready");
      expect(ready.status).toBe(200);
      expect(ready.json.areas).toEqual({
        reports: { configured: false },
        items: { configured: true, reachable: true, key_accepted: true, duration_ms: expect.any(Number) },
      });
      expect(gateway.logLines().find((line) => line.mode === "configured")?.msg).toContain(
        "reports API (area A) not configured",
      );
      // No METRICS_TOKEN: /metrics does not exist, whoever asks.
      expect((await api.request("/metrics")).status).toBe(404);
      expect(
        (await gateway.request("/metrics", { headers: { Authorization: "Bearer anything-at-all-0123456789abcdef" } }))
          .status,
      ).toBe(404);
      // Every log line names its instance (INSTANCE_ID unset: host:pid).
      expect(
        gateway.logLines().every((line) => typeof line.instance === "string" && /^.+:\d+$/.test(line.instance)),
      ).toBe(true);
    });
  });
});

describe("upstreams down", () => {
  it("answers 502 upstream_unreachable (503 once the breaker opens) on every route; health stays up, readiness says why", async () => {
    const port = await freePort(); // nothing listens there
    const env = {
      REPORTS_API_BASE_URL: `http://127.0.0.1:${port}/seo`,
      REPORTS_API_KEY: CANARY.reports,
      ITEMS_API_BASE_URL: `http://127.0.0.1:${port}/market`,
      ITEMS_API_KEY: CANARY.items,
    };
    await withGateway(env, async (gateway, api) => {
      for (const { c, res } of await everyRoute(api)) {
        // After 5 failed attempts an area's circuit breaker opens: the routes still waiting are refused at once.
        if (res.status === 503) expect(res.json.error.code, c.name).toBe("upstream_unavailable");
        else expect([res.status, res.json.error.code], c.name).toEqual([502, "upstream_unreachable"]);
      }
      expect((await api.request("/api/health")).status).toBe(200);
      const ready = await api.request("/api/ready");
      expect(ready.status).toBe(503);
      expect(ready.json).toMatchObject({
        status: "not_ready",
        areas: { reports: { configured: true, reachable: false }, items: { configured: true, reachable: false } },
      });
    });
  });
});

describe("keys rejected by the upstreams", () => {
  it("answers 502 upstream_auth on every route, sending an admin to the Upstream connections page", async () => {
    const env = {
      REPORTS_API_BASE_URL: sandbox.reportsBaseUrl,
      REPORTS_API_KEY: "not-a-key-the-sandbox-knows-1",
      ITEMS_API_BASE_URL: sandbox.itemsBaseUrl,
      ITEMS_API_KEY: "not-a-key-the-sandbox-knows-2",
    };
    await withGateway(env, async (gateway, api) => {
      for (const { c, res } of await everyRoute(api)) {
        expect(res.status, c.name).toBe(502);
        expect(res.json.error.code, c.name).toBe("upstream_auth");
        expect(res.json.error.message).toContain("An admin can replace the key");
        expect(res.text).not.toContain("not-a-key-the-sandbox-knows");
      }
      const ready = await api.request("/api/ready");
      expect(ready.status).toBe(503);
      expect(ready.json.areas.reports).toMatchObject({ reachable: true, key_accepted: false });
      expect(ready.json.areas.items).toMatchObject({ reachable: true, key_accepted: false });
      // The configured keys are redacted from log lines even though they are not canaries.
      expect(gateway.output().join("\n")).not.toContain("not-a-key-the-sandbox-knows");
    });
  });
});

describe("demo mode", () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "gatehouse-demo-"));
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it("with GATEHOUSE_DEMO=1, starts the embedded sandbox, says so, and serves both areas from it", async () => {
    const gateway = await startGateway({ GATEHOUSE_DEMO: "1", SANDBOX_PORT: "0", DEMO_DATA_DIR: dataDir });
    try {
      const api = await gateway.signIn({ email: "admin@demo.test", password: "gatehouse-demo" });
      const announcement = gateway.logLines().find((line) => line.mode === "demo");
      expect(announcement?.msg).toContain("demo mode");
      expect(announcement?.sandbox_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      // Everything the demo writes is in its own folder.
      expect(announcement?.data_dir).toBe(dataDir);

      const ready = await api.request("/api/ready");
      expect(ready.json).toMatchObject({ status: "ready", mode: "demo" });
      const reports = await api.request("/api/reports?per_page=25");
      expect(reports.json.data).toHaveLength(25);
      const purchase = await api.request("/api/purchases/validate", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ purchase_code: FIXED_PURCHASE_CODES.active }),
      });
      expect(purchase.json.data.valid).toBe(true);
      gateway.assertNoKeyLeaked();
    } finally {
      await gateway.stop();
    }
  });
});

describe("a bad configuration stops the start", () => {
  it("exits 1 naming each bad variable, never quoting a key, without a stack trace", async () => {
    const { code, output } = await startGatewayExpectingFailure({
      REPORTS_API_BASE_URL: "reports.example.com",
      REPORTS_API_KEY: "secret key with spaces",
      ITEMS_API_KEY: CANARY.items,
    });
    const text = output.join("\n");
    expect(code).toBe(1);
    expect(text).toContain('REPORTS_API_BASE_URL: "reports.example.com" must be an absolute http:// or https:// URL');
    expect(text).toContain("REPORTS_API_KEY: must be printable ASCII without spaces");
    expect(text).toContain("ITEMS_API_BASE_URL: is missing while ITEMS_API_KEY is set");
    expect(text).not.toContain("secret key with spaces");
    expect(text).not.toContain(CANARY.items);
    expect(text).not.toMatch(/\n\s+at /);
  });
});
