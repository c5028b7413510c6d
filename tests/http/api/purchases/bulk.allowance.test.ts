// Bulk jobs of junk are not free (the attack pass: a support user sent 30 jobs of 500 one-kilobyte junk codes,
// all accepted in 1.6 s, and the store grew from 4 MB to 38 MB). Over real HTTP with the default allowance:
// refused codes count against it, a refused code is kept at most 100 characters long, and a user may start at
// most 200 jobs in 24 hours.
import { stat } from "node:fs/promises";

import { describe, expect, it } from "vitest";

import { sandboxEnv, startGateway } from "@/tests/support/gateway";
import { setUpGateway } from "@/tests/support/set-up-gateway";

const json = (body: unknown): RequestInit => ({
  method: "POST",
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify(body),
});

const { sandbox, gateway, client: support } = setUpGateway({ signIn: "support" });

async function storeBytes(): Promise<number> {
  let total = 0;
  for (const suffix of ["", "-wal"])
    total += await stat(`${gateway.databaseUrl}${suffix}`).then(
      (s) => s.size,
      () => 0,
    );
  return total;
}

/** 500 distinct codes of about a kilobyte each, every one refused by the normaliser (a look-alike letter). */
const junkBatch = (job: number) => Array.from({ length: 500 }, (_, n) => `${job}-${n}-${"\u0430".repeat(500)}`);

describe("30 jobs of 500 one-kilobyte junk codes from one support user", () => {
  it("accepts what fits the hourly allowance (1000 codes) and refuses the rest with 429 and Retry-After", async () => {
    const before = await storeBytes();
    const statuses: number[] = [];
    let lastRefusal: { message: string; retryAfter: string | null } | undefined;
    for (let job = 0; job < 30; job++) {
      const res = await support.request("/api/purchases/bulk", json({ codes: junkBatch(job) }));
      statuses.push(res.status);
      if (res.status === 429)
        lastRefusal = { message: res.json.error.message, retryAfter: res.headers.get("retry-after") };
    }
    expect(statuses.slice(0, 2)).toEqual([202, 202]);
    expect(statuses.slice(2)).toEqual(Array(28).fill(429));
    expect(lastRefusal?.message).toMatch(
      /^This batch needs 500 codes but your bulk allowance has 0 of 1,000 codes left this hour\./,
    );
    expect(Number(lastRefusal?.retryAfter)).toBeGreaterThan(0);
    // 15 MB of junk sent; two jobs of it kept, each code cut to 100 characters (about 1.8 MB with the WAL).
    expect(await storeBytes()).toBeLessThan(before + 4 * 1024 * 1024);
  }, 120_000);

  it("keeps each refused code at most 100 characters long, saying why it was refused", async () => {
    const jobs = (await support.request("/api/purchases/bulk")).json.data as Array<{ id: string }>;
    const job = (await support.request(`/api/purchases/bulk/${jobs[0]!.id}`)).json.data as {
      results: Array<{ code: string; status: string; reason: string }>;
    };
    expect(job.results).toHaveLength(500);
    for (const result of job.results) {
      expect(result.status).toBe("invalid");
      expect(Array.from(result.code).length).toBeLessThanOrEqual(101);
      expect(result.reason.length).toBeLessThan(400);
    }
  });
});

describe("jobs per user per day", () => {
  it("refuses the 201st job in 24 hours, however small, with when the next may start", async () => {
    const small = await startGateway(sandboxEnv(sandbox, { PURCHASE_BULK_LIMIT_PER_HOUR: "1000000" }));
    try {
      const user = await small.signIn("support");
      for (let job = 0; job < 200; job++) {
        const res = await user.request("/api/purchases/bulk", json({ codes: [`junk-${job}-\u0007`] }));
        expect(res.status, res.text).toBe(202);
      }
      const refused = await user.request("/api/purchases/bulk", json({ codes: ["junk-201-\u0007"] }));
      expect(refused.status).toBe(429);
      expect(refused.json.error.message).toMatch(
        /^You have started 200 bulk checks in the last 24 hours, the most one user may\. The next can start at \S+Z \(in (1440|1439) minutes\)/,
      );
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(86_000);
      // Another user is not affected.
      expect(
        (await (await small.signIn("editor")).request("/api/purchases/bulk", json({ codes: ["junk-editor-\u0007"] })))
          .status,
      ).toBe(202);
    } finally {
      await small.stop();
    }
  }, 120_000);
});
