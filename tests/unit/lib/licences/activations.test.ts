// The activations table (lib/licences/activations.ts), on SQLite and PostgreSQL: activating to the limit and no
// further, also when twenty copies of one code activate at once; the same instance again is the same activation;
// a never-counted one is kept apart; a copy's deactivation, a staff reset of one and of every activation of a code;
// a deactivated instance activated again is the same row, active.
import { describe, expect, it } from "vitest";

import {
  activate,
  activationById,
  activationsUsed,
  codeActivations,
  deactivateInstance,
  resetActivation,
  resetCode,
} from "@/lib/licences/activations";
import type { Instance } from "@/lib/licences/instances";

import { bothBackends, useStore, type Backend } from "@/tests/support/store-backends";

const AT = new Date("2026-11-28T12:00:00.000Z");
const licence = { codeHash: "hash-a", codeLast4: "aaaa", itemId: 7 };
const site = (value: string): Instance => ({ kind: "domain", value, name: null });
const how = (by: string, reason: string | null = null) => ({ by, reason, at: AT });

describe.each<Backend>(bothBackends())("on $name", (backend) => {
  const store = useStore(backend);

  it("activates up to the limit, answers the same instance with the same activation, and refuses one more", async () => {
    const { db } = store();
    const first = await activate(db, licence, site("one.example"), { counted: true, allowed: 2, at: AT });
    expect(first).toMatchObject({ kind: "activated", used: 1, activation: { status: "active", counted: true } });
    const again = await activate(db, licence, site("one.example"), { counted: true, allowed: 2, at: AT });
    expect(again.kind).toBe("already");
    if (again.kind === "limit" || first.kind === "limit") throw new Error("unexpected limit");
    expect(again.activation.id).toBe(first.activation.id);
    await activate(db, licence, site("two.example"), { counted: true, allowed: 2, at: AT });
    const third = await activate(db, licence, site("three.example"), { counted: true, allowed: 2, at: AT });
    expect(third).toMatchObject({ kind: "limit", used: 2 });
    if (third.kind !== "limit") throw new Error("expected the limit");
    expect(third.active.map((activation) => activation.instance.value).sort()).toEqual(["one.example", "two.example"]);
    // A never-counted instance is let in at the limit, and counts for nothing.
    const local = await activate(db, licence, site("localhost"), { counted: false, allowed: 2, at: AT });
    expect(local).toMatchObject({ kind: "activated", used: 2, activation: { counted: false } });
    expect(await activationsUsed(db, licence)).toBe(2);
    // Another item's licence of the same code is counted apart.
    const other = await activate(db, { ...licence, itemId: 8 }, site("three.example"), {
      counted: true,
      allowed: 1,
      at: AT,
    });
    expect(other.kind).toBe("activated");
  });

  it("lets twenty copies of one code activating at once take exactly the allowed activations", async () => {
    const { db } = store();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, n) =>
        activate(db, licence, site(`copy-${n}.example`), { counted: true, allowed: 3, at: AT }),
      ),
    );
    expect(results.filter((result) => result.kind === "activated")).toHaveLength(3);
    expect(results.filter((result) => result.kind === "limit")).toHaveLength(17);
    expect(await activationsUsed(db, licence)).toBe(3);
  });

  it("deactivates a copy, resets one and all, and activates a freed instance again as the same row", async () => {
    const { db } = store();
    const one = await activate(db, licence, site("one.example"), { counted: true, allowed: 5, at: AT });
    await activate(db, licence, site("two.example"), { counted: true, allowed: 5, at: AT });
    await activate(db, { ...licence, itemId: 8 }, site("three.example"), { counted: true, allowed: 5, at: AT });
    if (one.kind === "limit") throw new Error("unexpected limit");

    const freed = await deactivateInstance(db, licence, site("one.example"), how("copy"));
    expect(freed).toMatchObject({ id: one.activation.id, status: "deactivated", deactivated_by: "copy" });
    expect(await deactivateInstance(db, licence, site("one.example"), how("copy"))).toBeNull();
    const back = await activate(db, licence, site("one.example"), { counted: true, allowed: 5, at: AT });
    expect(back).toMatchObject({ kind: "activated", activation: { id: one.activation.id, status: "active" } });

    const reset = await resetActivation(db, one.activation.id, how("vera@example.com", "moved to a new host"));
    expect(reset).toMatchObject({
      status: "deactivated",
      deactivated_by: "vera@example.com",
      reason: "moved to a new host",
    });
    expect(await resetActivation(db, one.activation.id, how("vera@example.com", "again"))).toBeNull();
    expect(await activationById(db, one.activation.id)).toMatchObject({ status: "deactivated" });
    expect(await activationById(db, "act_missing0000")).toBeNull();

    const all = await resetCode(db, licence.codeHash, null, how("refund", "The purchase was refunded."));
    expect(all.map((activation) => activation.instance.value).sort()).toEqual(["three.example", "two.example"]);
    const listed = await codeActivations(db, licence.codeHash);
    expect(listed).toHaveLength(3);
    expect(listed.every((activation) => activation.status === "deactivated")).toBe(true);
    expect(await codeActivations(db, "another-hash")).toEqual([]);
  });

  it("resets only the named item's activations when an item is given", async () => {
    const { db } = store();
    await activate(db, licence, site("one.example"), { counted: true, allowed: 5, at: AT });
    await activate(db, { ...licence, itemId: 8 }, site("one.example"), { counted: true, allowed: 5, at: AT });
    const reset = await resetCode(db, licence.codeHash, 8, how("vera@example.com", "item 8 only"));
    expect(reset.map((activation) => activation.item_id)).toEqual([8]);
    expect(await activationsUsed(db, licence)).toBe(1);
  });
});
