// Process-wide state: one value per name, whichever copy of the module asks. A second copy is loaded here with a
// query string, as Next loads one per bundle (tests/unit/lib/brand.test.ts does the same for the brands).
import path from "node:path";

import { afterEach, describe, expect, it, vi } from "vitest";

import { processPromise, processSlot, processWide } from "@/lib/process-wide";
import { ROOT } from "@/tests/support/processes";

type ProcessWide = typeof import("@/lib/process-wide");

const shared = globalThis as unknown as Record<symbol, unknown>;
const NAMES = ["test.once", "test.copies", "test.slot", "test.promise", "test.stale"];

async function secondCopy(): Promise<ProcessWide> {
  return (await import(/* @vite-ignore */ `${path.resolve(ROOT, "lib/process-wide.ts")}?copy`)) as ProcessWide;
}

afterEach(() => {
  for (const name of NAMES) delete shared[Symbol.for(`gatehouse.${name}`)];
});

describe("processWide", () => {
  it("creates the value on first use only, and gives the same one after", () => {
    const create = vi.fn(() => ({ made: Date.now() }));
    const first = processWide("test.once", create);
    expect(processWide("test.once", create)).toBe(first);
    expect(create).toHaveBeenCalledTimes(1);
  });

  it("keeps the value under Symbol.for(`gatehouse.<name>`), where another copy of the module finds it", async () => {
    const value = processWide("test.copies", () => new Set(["a"]));
    expect(shared[Symbol.for("gatehouse.test.copies")]).toBe(value);

    const copy = await secondCopy();
    expect(copy.processWide).not.toBe(processWide);
    const create = vi.fn(() => new Set<string>());
    expect(copy.processWide("test.copies", create)).toBe(value);
    expect(create).not.toHaveBeenCalled();
  });
});

describe("processSlot", () => {
  it("is empty until set, holds what was set for every copy, and is empty again once cleared", async () => {
    const slot = processSlot<string>("test.slot");
    expect(slot.get()).toBeUndefined();

    slot.set("first");
    expect(slot.get()).toBe("first");
    expect(processSlot<string>("test.slot").get()).toBe("first");
    expect((await secondCopy()).processSlot<string>("test.slot").get()).toBe("first");

    slot.set("second");
    expect(shared[Symbol.for("gatehouse.test.slot")]).toBe("second");

    slot.set(undefined);
    expect(slot.get()).toBeUndefined();
    expect(Symbol.for("gatehouse.test.slot") in globalThis).toBe(false);
    expect(processWide("test.slot", () => "made again")).toBe("made again");
  });
});

describe("processPromise", () => {
  it("starts once and keeps a promise that resolves", async () => {
    const start = vi.fn(async () => "ready");
    const first = processPromise("test.promise", start);
    expect(processPromise("test.promise", start)).toBe(first);
    await expect(first).resolves.toBe("ready");
    expect(processPromise("test.promise", start)).toBe(first);
    expect(start).toHaveBeenCalledTimes(1);
  });

  it("forgets a promise that rejects, so that the next call starts again", async () => {
    const start = vi.fn().mockRejectedValueOnce(new Error("not reachable yet")).mockResolvedValueOnce("ready");
    await expect(processPromise("test.promise", start)).rejects.toThrow("not reachable yet");
    await expect(processPromise("test.promise", start)).resolves.toBe("ready");
    expect(start).toHaveBeenCalledTimes(2);
  });

  it("leaves a newer promise alone when an older one, already replaced, rejects", async () => {
    let fail: (error: Error) => void = () => {};
    const older = processPromise("test.stale", () => new Promise<string>((_, reject) => (fail = reject)));
    processSlot<Promise<string>>("test.stale").set(undefined);
    const newer = processPromise("test.stale", async () => "newer");
    fail(new Error("too late"));
    await expect(older).rejects.toThrow("too late");
    expect(processSlot("test.stale").get()).toBe(newer);
  });
});
