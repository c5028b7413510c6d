// A token's own limits and its usage over real HTTP, on two instances sharing one PostgreSQL and one Redis (as
// tests/http/server/cluster.test.ts starts them): a per-minute limit of N lets exactly N requests through across
// both instances, sent at once, then 429 rate_limited with Retry-After; a monthly quota of M likewise, then 429
// quota_exceeded until the month turns, with token.quota_reached recorded once; the limits set and changed by
// PATCH /api/tokens/{id} with refusals that name the bounds; and the usage both instances wrote (GET
// /api/tokens/usage) equal to the requests made, by operation and outcome, with the upstream calls per token.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { CANARY } from "@/tests/support/canary";
import {
  sandboxEnv,
  startGateway,
  type GatewayProcess,
  type GatewayResponse,
  type SignedInClient,
} from "@/tests/support/gateway";
import { startTestPostgres, type TestPostgres } from "@/tests/support/postgres";
import { startTestRedis, type TestRedis } from "@/tests/support/redis";
import { upstreamCalls } from "@/tests/support/resilience";
import { startTestSandbox, type TestSandbox } from "@/tests/support/sandbox";
import { until } from "@/tests/support/until";

let sandbox: TestSandbox;
let postgres: TestPostgres;
let redis: TestRedis;
let databaseUrl: string;
const instances: GatewayProcess[] = [];
let admin: SignedInClient;

beforeAll(async () => {
  [sandbox, postgres, redis] = await Promise.all([
    startTestSandbox({ extraKeys: { reports: [CANARY.reports], items: { [CANARY.items]: "main" } } }),
    startTestPostgres(),
    startTestRedis(),
  ]);
  databaseUrl = await postgres.createDatabase();
  const env = sandboxEnv(sandbox, {
    DATABASE_URL: databaseUrl,
    REDIS_URL: redis.url,
    TOKEN_RATE_LIMIT_PER_MINUTE: "1000",
  });
  instances.push(
    ...(await Promise.all([
      startGateway({ ...env, INSTANCE_ID: "one" }),
      startGateway({ ...env, INSTANCE_ID: "two" }),
    ])),
  );
  // A fresh sign-in is a fresh proof: making a token (a step-up action) needs no confirmation.
  admin = await instances[0]!.signIn("admin");
}, 120_000);

afterAll(async () => {
  await Promise.allSettled(instances.map((instance) => instance.stop()));
  await Promise.allSettled([redis?.stop(), postgres?.stop(), sandbox?.close()]);
});

async function makeToken(limits: Record<string, unknown>): Promise<{ id: string; secret: string }> {
  const res = await admin.request("/api/tokens", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ name: "script", scopes: ["reports:read"], expires_in_days: 7, ...limits }),
  });
  expect(res.status, res.text).toBe(201);
  return { id: res.json.data.id, secret: res.json.data.secret };
}

/** The i-th request goes to instance i mod 2: both instances serve the token's requests. */
const withToken = (secret: string, i: number, pathname: string): Promise<GatewayResponse> =>
  instances[i % 2]!.request(pathname, { headers: { Authorization: `Bearer ${secret}` } });

const LIST = "/api/reports?per_page=10";

describe("a token's own limits, on two instances", () => {
  it("are set when it is made and refused out of bounds with a sentence naming them", async () => {
    const bad = await admin.request("/api/tokens", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ name: "x", scopes: ["reports:read"], expires_in_days: 7, rate_limit_per_minute: 0 }),
    });
    expect(bad.status).toBe(400);
    expect(bad.json.error.fields.rate_limit_per_minute).toBe(
      "rate_limit_per_minute must be at least 1, or empty (null) for none",
    );
    const { id } = await makeToken({ rate_limit_per_minute: 10, monthly_quota: 1000 });
    const listed = (await admin.request("/api/tokens")).json.data.find((t: { id: string }) => t.id === id);
    expect(listed).toMatchObject({ rate_limit_per_minute: 10, monthly_quota: 1000 });
    const changed = await instances[1]!.request(`/api/tokens/${id}`, {
      method: "PATCH",
      headers: { Cookie: admin.cookie(), "X-CSRF": "1", "Content-Type": "application/json" },
      body: JSON.stringify({ rate_limit_per_minute: null, monthly_quota: 2000 }),
    });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.json.data).toMatchObject({ rate_limit_per_minute: null, monthly_quota: 2000 });
    const tooBig = await admin.request(`/api/tokens/${id}`, {
      method: "PATCH",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ monthly_quota: 1.5 }),
    });
    expect(tooBig.status).toBe(400);
    expect(tooBig.json.error.fields.monthly_quota).toBe(
      "monthly_quota must be a whole number from 1 to 1,000,000,000, or empty (null) for none",
    );
    const empty = await admin.request(`/api/tokens/${id}`, {
      method: "PATCH",
      headers: { "Content-Type": "application/json" },
      body: "{}",
    });
    expect(empty.status).toBe(400);
    expect(empty.json.error.fields.rate_limit_per_minute).toBe(
      "rate_limit_per_minute or monthly_quota must be given, or both (null removes a limit)",
    );
  });

  let perMinute: { id: string; secret: string };
  let quota: { id: string; secret: string };

  it("let exactly the per-minute limit through across both instances, sent at once, then 429 with Retry-After", async () => {
    perMinute = await makeToken({ rate_limit_per_minute: 5 });
    // From here on, every upstream call is one of these tokens' (compared with their usage at the end).
    await sandbox.clearRequests();
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => withToken(perMinute.secret, i, LIST)));
    const statuses = answers.map((res) => res.status).sort();
    expect(
      statuses.filter((s) => s === 200),
      answers.map((res) => res.text).join("\n"),
    ).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(7);
    const refused = answers.find((res) => res.status === 429)!;
    expect(refused.json.error.code).toBe("rate_limited");
    expect(refused.json.error.message).toMatch(/^Too many requests with this API token: its own limit is 5 a minute\./);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers.get("retry-after"))).toBeLessThanOrEqual(60);
  });

  it("let exactly the monthly quota through across both instances, then 429 quota_exceeded until the month turns", async () => {
    quota = await makeToken({ monthly_quota: 4 });
    // Refused before its limits are counted (a scope it lacks): not part of the quota.
    const denied = await withToken(quota.secret, 0, "/api/tokens");
    expect(denied.status).toBe(403);
    // A request of its own refused (bad input) still counts: it was let through.
    const bad = await withToken(quota.secret, 1, "/api/reports?per_page=abc");
    expect(bad.status).toBe(400);
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => withToken(quota.secret, i, LIST)));
    expect(answers.filter((res) => res.status === 200)).toHaveLength(3);
    const refused = answers.filter((res) => res.status === 429);
    expect(refused).toHaveLength(3);
    const now = new Date();
    const next = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString();
    const first = refused[0]!;
    expect(first.json.error.code).toBe("quota_exceeded");
    expect(first.json.error.message).toBe(
      `This API token has used its monthly quota of 4 requests. It is refused until the month turns, at ${next} (UTC), unless its owner raises the quota on the API tokens page.`,
    );
    const retryAfter = Number(first.headers.get("retry-after"));
    expect(Math.abs(retryAfter - (Date.parse(next) - Date.now()) / 1000)).toBeLessThan(30);
    expect(first.headers.get("gatehouse-quota-remaining")).toBe("0");
    expect(first.headers.get("gatehouse-quota-reset")).toBe(next);
    const remaining = answers
      .filter((res) => res.status === 200)
      .map((res) => res.headers.get("gatehouse-quota-remaining"))
      .sort();
    expect(remaining).toEqual(["0", "1", "2"]);

    // The event's month is noted once, whichever instance counted the last request.
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query("select month from token_quota_reached where token_id = $1", [quota.id]);
      expect(rows).toEqual([{ month: now.toISOString().slice(0, 7) }]);
    } finally {
      await client.end();
    }

    // Raised by its owner on the other instance: the next request passes at once.
    const raised = await instances[1]!.request(`/api/tokens/${quota.id}`, {
      method: "PATCH",
      headers: { Cookie: admin.cookie(), "X-CSRF": "1", "Content-Type": "application/json" },
      body: JSON.stringify({ monthly_quota: 5 }),
    });
    expect(raised.status, raised.text).toBe(200);
    expect((await withToken(quota.secret, 0, LIST)).status).toBe(200);
    expect((await withToken(quota.secret, 1, LIST)).status).toBe(429);
  });

  it("shows usage equal to the requests made, by operation and outcome, once both instances have written it", async () => {
    type Row = {
      token_id: string;
      operation: string;
      outcome: string;
      count: number;
      upstream_calls: { reports: number };
    };
    // Upstream calls: identical reads at once share one call (single flight), counted for the request that made
    // it; so each ok row has at least one, and together they are the calls the sandbox saw.
    const expected = [
      { token: perMinute.id, operation: "listReports", outcome: "limited", count: 7 },
      { token: perMinute.id, operation: "listReports", outcome: "ok", count: 5 },
      { token: quota.id, operation: "listReports", outcome: "limited", count: 4 },
      { token: quota.id, operation: "listReports", outcome: "ok", count: 4 },
      { token: quota.id, operation: "listReports", outcome: "refused", count: 1 },
      { token: quota.id, operation: "listTokens", outcome: "denied", count: 1 },
    ];
    const summary = (rows: Row[]) =>
      rows
        .filter((row) => row.token_id === perMinute.id || row.token_id === quota.id)
        .map((row) => ({
          token: row.token_id,
          operation: row.operation,
          outcome: row.outcome,
          count: row.count,
        }))
        .sort((a, b) =>
          `${a.token === perMinute.id ? 0 : 1}${a.operation}${a.outcome}`.localeCompare(
            `${b.token === perMinute.id ? 0 : 1}${b.operation}${b.outcome}`,
          ),
        );
    // Each instance writes its counts every 5 s: wait until both have.
    let last: unknown = null;
    const usage = await until(
      async () => {
        const res = await instances[1]!.request("/api/tokens/usage", { headers: { Cookie: admin.cookie() } });
        expect(res.status, res.text).toBe(200);
        last = summary(res.json.data.rows);
        return JSON.stringify(last) === JSON.stringify(expected) ? res.json.data : null;
      },
      "the usage of both instances, equal to the requests made",
      15_000,
      250,
    ).catch((error: unknown) => {
      throw new Error(`${String(error)}; last seen: ${JSON.stringify(last)}`);
    });
    expect(summary(usage.rows)).toEqual(expected);
    const calls = (token: string, outcome: string) =>
      (usage.rows as Row[]).find((row) => row.token_id === token && row.outcome === outcome)?.upstream_calls.reports;
    for (const token of [perMinute.id, quota.id]) {
      expect(calls(token, "limited")).toBe(0);
      expect(calls(token, "ok")).toBeGreaterThanOrEqual(1);
    }
    expect(calls(quota.id, "refused")).toBe(0);
    const seen = (await upstreamCalls(sandbox, "GET")).filter((call) => call.path.endsWith("/reports")).length;
    expect(calls(perMinute.id, "ok")! + calls(quota.id, "ok")!).toBe(seen);
    expect(usage.top_upstream.reports).toEqual(
      [
        { token_id: perMinute.id, calls: calls(perMinute.id, "ok") },
        { token_id: quota.id, calls: calls(quota.id, "ok") },
      ].sort((a, b) => b.calls! - a.calls! || a.token_id.localeCompare(b.token_id)),
    );
    expect(usage.top_upstream.items).toEqual([]);
  });
});
