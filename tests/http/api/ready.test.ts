// /api/ready over real HTTP: anyone may ask, but asking costs the upstreams nothing per caller (the attack pass
// made 300 anonymous requests cause 305 keyed upstream calls in 1.8 s). The upstreams are asked at most once per
// READINESS_INTERVAL_MS, and only an admin's session or the METRICS_TOKEN sees which area failed and why.
import { describe, expect, it } from "vitest";

import { READINESS_INTERVAL_MS } from "@/lib/upstream/readiness";

import { setUpGateway } from "@/tests/support/set-up-gateway";

const TOKEN = "readiness-token-for-tests-0123456789abcdef";
const CHECKS = ["/seo/api/v1/projects", "/market/api/account/details"];

const { sandbox, gateway } = setUpGateway({ env: { METRICS_TOKEN: TOKEN } });

async function checksMade(): Promise<Record<string, number>> {
  const requests = await sandbox.requests();
  return Object.fromEntries(CHECKS.map((path) => [path, requests.filter((r) => r.path === path).length]));
}

describe("300 anonymous requests, 50 at a time", () => {
  it("cost at most one check of each area per interval, and every answer is the same short state", async () => {
    await sandbox.clearRequests();
    const started = Date.now();
    const answers: Array<{ status: number; json: Record<string, unknown> }> = [];
    for (let round = 0; round < 6; round++) {
      answers.push(...(await Promise.all(Array.from({ length: 50 }, () => gateway.request("/api/ready")))));
    }
    const intervals = Math.floor((Date.now() - started) / READINESS_INTERVAL_MS) + 1;
    const made = await checksMade();
    for (const path of CHECKS) {
      expect(made[path]).toBeGreaterThanOrEqual(1);
      expect(made[path]).toBeLessThanOrEqual(intervals);
    }
    expect(answers.every((res) => res.status === 200)).toBe(true);
    for (const { json } of answers) {
      expect(Object.keys(json).sort()).toEqual(["checked_at", "status"]);
      expect(json.status).toBe("ready");
    }
    expect(new Set(answers.map(({ json }) => json.checked_at)).size).toBeLessThanOrEqual(intervals);
  });
});

describe("who sees the detail", () => {
  it("an admin's session and the METRICS_TOKEN see the areas and breakers; anyone else only the state", async () => {
    const admin = await gateway.signIn("admin");
    const viewer = await gateway.signIn("viewer");
    const detail = expect.objectContaining({
      status: "ready",
      mode: "configured",
      areas: {
        reports: expect.objectContaining({ configured: true, reachable: true }),
        items: expect.objectContaining({ configured: true, key_accepted: true }),
      },
      breakers: expect.any(Object),
      checked_at: expect.any(String),
    });
    expect((await admin.request("/api/ready")).json).toEqual(detail);
    expect((await gateway.request("/api/ready", { headers: { Authorization: `Bearer ${TOKEN}` } })).json).toEqual(
      detail,
    );
    for (const res of [
      await viewer.request("/api/ready"),
      await gateway.request("/api/ready", { headers: { Authorization: `Bearer ${TOKEN.slice(0, -1)}x` } }),
      await gateway.request("/api/ready", { headers: { Authorization: TOKEN } }),
    ]) {
      expect(Object.keys(res.json).sort()).toEqual(["checked_at", "status"]);
    }
    // The token is a secret like the keys: never in a log line.
    expect(gateway.output().some((line) => line.includes(TOKEN))).toBe(false);
  });

  it("a down area makes anonymous callers see not_ready (503) without saying which, once the next check runs", async () => {
    await sandbox.injectFault({ path: "/market/*", kind: "status", status: 500 });
    try {
      let res = await gateway.request("/api/ready");
      for (let i = 0; i < 200 && res.status === 200; i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        res = await gateway.request("/api/ready");
      }
      expect(res.status).toBe(503);
      expect(res.json).toEqual({ status: "not_ready", checked_at: expect.any(String) });
      const admin = await gateway.signIn("admin");
      expect((await admin.request("/api/ready")).json.areas.items).toMatchObject({
        configured: true,
        problem: "the upstream check failed: http_status",
      });
    } finally {
      await sandbox.clearFaults();
    }
  }, 20_000);
});
