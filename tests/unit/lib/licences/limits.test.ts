// What holds the licence API under a crowd (lib/licences/limits.ts), on a cluster of one process: each of the
// per-code, per-address and per-item limits refuses past its count with the wait and says which one did; the
// budget gives a seventh of the minute's calls in each 10 s window (and paces a small budget one call at a time);
// its refusal is known by its mark, not its class.
import { describe, expect, it } from "vitest";

import { localCluster } from "@/lib/cluster";
import { isLicenceBudgetSpent, LicenceBudgetSpent, licenceBudget, takeLicenceRequest } from "@/lib/licences/limits";

const LIMITS = { perCode: 3, perIp: 5, perItem: 4, maxShare: 0.5 };

describe("takeLicenceRequest", () => {
  it("refuses a code past its limit, then the address, then the item, naming which", async () => {
    const cluster = localCluster("limits-test");
    const ask = (codeHash: string, itemId: number, address: string | null) =>
      takeLicenceRequest(LIMITS, { codeHash, itemId, address }, cluster);
    for (let n = 0; n < 3; n++) expect(await ask("code-a", 1, "203.0.113.1")).toEqual({ allowed: true });
    expect(await ask("code-a", 1, "203.0.113.1")).toMatchObject({ allowed: false, limitedBy: "code" });
    const item = await ask("code-b", 1, "203.0.113.2");
    expect(item).toMatchObject({ allowed: false, limitedBy: "item" });
    if (item.allowed) throw new Error("expected a refusal");
    expect(item.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(item.retryAfterSeconds).toBeLessThanOrEqual(60);
    expect(await ask("code-c", 2, "203.0.113.1")).toEqual({ allowed: true }); // the address's fifth
    expect(await ask("code-g", 3, "203.0.113.1")).toMatchObject({ allowed: false, limitedBy: "address" });
    // Without a known address every such request shares one bucket.
    for (let n = 0; n < 4; n++) await ask(`code-d${n}`, 3 + n, null);
    expect(await ask("code-e", 9, null)).toMatchObject({ allowed: true });
    expect(await ask("code-f", 10, null)).toMatchObject({ allowed: false, limitedBy: "address" });
  });
});

describe("licenceBudget", () => {
  it("gives a seventh of the minute's calls in a 10 s window, then the wait", async () => {
    // 140 calls a minute × 0.5 = 70: 10 in each 10 s window.
    const budget = licenceBudget(140, { ...LIMITS, maxShare: 0.5 });
    expect(budget.intervalMs).toBe(10_000);
    const takes = [];
    for (let n = 0; n < 11; n++) takes.push(await budget.take());
    expect(takes.slice(0, 10)).toEqual(Array(10).fill(0));
    expect(takes[10]).toBeGreaterThan(0);
    expect(takes[10]).toBeLessThanOrEqual(10_000);
  });

  it("paces a budget under seven a minute one call at a time", async () => {
    const budget = licenceBudget(6, { ...LIMITS, maxShare: 0.5 }); // 3 a minute: one every 20 s
    expect(budget.intervalMs).toBe(20_000);
    expect(await budget.take()).toBe(0);
    expect(await budget.take()).toBeGreaterThan(0);
  });

  it("marks its refusal so that any bundle's copy knows it", () => {
    const spent = new LicenceBudgetSpent(1500);
    expect(isLicenceBudgetSpent(spent)).toBe(true);
    expect(
      isLicenceBudgetSpent(Object.assign(new Error("x"), { [Symbol.for("gatehouse.LicenceBudgetSpent")]: true })),
    ).toBe(true);
    expect(isLicenceBudgetSpent(null)).toBe(false);
  });
});
