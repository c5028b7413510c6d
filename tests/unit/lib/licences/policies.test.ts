// Each item's licence policy (lib/licences/policies.ts): the defaults (off) until saved, saved whole and read back,
// patterns kept once, the activations a licence type allows; a row edited by hand into nonsense reads as off.
import { describe, expect, it } from "vitest";

import { DEFAULT_LICENCE_POLICY } from "@/lib/contract/licences";
import { activationsAllowed, licencePolicies, licencePolicy, saveLicencePolicy } from "@/lib/licences/policies";

import { sqliteBackend, useStore } from "@/tests/support/store-backends";

describe("licence policies", () => {
  const store = useStore(sqliteBackend);

  it("answers the defaults, off, for an item never saved", async () => {
    expect(await licencePolicy(store().db, 5)).toEqual({
      item_id: 5,
      ...DEFAULT_LICENCE_POLICY,
      updated_at: null,
      updated_by: null,
    });
    expect(await licencePolicies(store().db)).toEqual([]);
  });

  it("saves a policy whole and reads it back, each pattern once", async () => {
    const { db } = store();
    const saved = await saveLicencePolicy(
      db,
      5,
      {
        enabled: true,
        limits: { regular: 2, extended: 10 },
        never_count: ["*.test", "*.test", "dev.*"],
        revoked_deactivates: false,
      },
      "admin@example.com",
    );
    expect(saved).toMatchObject({
      item_id: 5,
      enabled: true,
      limits: { regular: 2, extended: 10 },
      never_count: ["*.test", "dev.*"],
      revoked_deactivates: false,
      updated_by: "admin@example.com",
    });
    expect(await licencePolicies(db)).toEqual([saved]);
    expect(activationsAllowed(saved, "Extended License")).toBe(10);
    expect(activationsAllowed(saved, "Regular License")).toBe(2);
  });

  it("reads a row edited by hand into nonsense as off", async () => {
    const { db } = store();
    await saveLicencePolicy(db, 6, { ...DEFAULT_LICENCE_POLICY, enabled: true }, "admin@example.com");
    await db.updateTable("licence_policies").set({ limits: '{"regular":-4}' }).where("item_id", "=", 6).execute();
    expect((await licencePolicy(db, 6)).enabled).toBe(false);
  });

  it("refuses a policy its schema refuses", async () => {
    await expect(
      saveLicencePolicy(store().db, 7, { ...DEFAULT_LICENCE_POLICY, never_count: ["*foo*"] }, "admin@example.com"),
    ).rejects.toThrow(/wildcard/);
  });
});
