// The cap on one target's jobs at once: the cap's worth run, one more is told to retry (not run), another target's
// goes at once, and a finished or failed job frees its place.
import { describe, expect, it } from "vitest";

import type { JobOutcome } from "@/lib/jobs";
import { perTargetCap } from "@/lib/jobs/per-target-cap";

/** A job that runs until the test releases it. */
function held() {
  let release!: (outcome: JobOutcome) => void;
  let fail!: (error: Error) => void;
  let started = false;
  const work = () => {
    started = true;
    return new Promise<JobOutcome>((resolve, reject) => {
      release = resolve;
      fail = reject;
    });
  };
  return {
    work,
    release: (o: JobOutcome = { kind: "done" }) => release(o),
    fail: (e: Error) => fail(e),
    started: () => started,
  };
}

describe("perTargetCap", () => {
  it("runs up to the cap for one target, answers retry past it, and lets another target through", async () => {
    const cap = perTargetCap(2, 500);
    const [a, b, c, other] = [held(), held(), held(), held()];
    const ranA = cap.run("slow", a.work);
    const ranB = cap.run("slow", b.work);
    expect(cap.inFlight("slow")).toBe(2);
    expect(await cap.run("slow", c.work)).toEqual({ kind: "retry", afterMs: 500 });
    expect(c.started()).toBe(false);
    const ranOther = cap.run("fast", other.work);
    expect(other.started()).toBe(true);
    other.release();
    expect(await ranOther).toEqual({ kind: "done" });

    a.release();
    expect(await ranA).toEqual({ kind: "done" });
    expect(cap.inFlight("slow")).toBe(1);
    // A place is free again: the next one runs.
    const ranC = cap.run("slow", c.work);
    expect(c.started()).toBe(true);
    b.release({ kind: "retry", afterMs: 10 });
    c.release();
    expect(await ranB).toEqual({ kind: "retry", afterMs: 10 });
    expect(await ranC).toEqual({ kind: "done" });
    expect(cap.inFlight("slow")).toBe(0);
  });

  it("frees the place of a job that throws", async () => {
    const cap = perTargetCap(1, 500);
    const a = held();
    const ran = cap.run("t", a.work);
    a.fail(new Error("boom"));
    await expect(ran).rejects.toThrow("boom");
    expect(cap.inFlight("t")).toBe(0);
    expect(await cap.run("t", async () => ({ kind: "done" }))).toEqual({ kind: "done" });
  });
});
