// What must last: results in a row, minutes down; flapping says nothing; a recovery once, after its alert.
import { describe, expect, it } from "vitest";

import { due, firstSeen, observe, observeTimed, type Condition } from "@/lib/notifications/lasting";

const RANK: Record<string, number> = { good: 0, decent: 1, bad: 2 };
const worse = (from: string, to: string) => RANK[to]! > RANK[from]!;

/** Feeds results one by one; returns what each said. */
function feed(results: string[], needed = 2): { said: string[]; condition: Condition } {
  let condition = firstSeen("report:1", results[0]!, "t0");
  const said: string[] = [];
  results.slice(1).forEach((result, i) => {
    const step = observe(condition, result, `t${i + 1}`, needed, worse);
    condition = step.condition;
    if (step.verdict) said.push(`${step.verdict.say} ${step.verdict.from}→${step.verdict.to}`);
  });
  return { said, condition };
}

describe("observe (results in a row)", () => {
  it("flapping good/bad/good/bad/good says nothing", () => {
    expect(feed(["good", "bad", "good", "bad", "good"]).said).toEqual([]);
  });

  it("a worse result that lasts 2 results alerts once, since its first result", () => {
    const { said, condition } = feed(["good", "bad", "bad", "bad"]);
    expect(said).toEqual(["alert good→bad"]);
    expect(condition).toMatchObject({ state: "bad", since: "t1", alerted: 1, candidate: null });
  });

  it("a recovery is sent once, only after its alert, and only once it lasted", () => {
    expect(feed(["good", "bad", "bad", "good", "bad", "good", "good", "good"]).said).toEqual([
      "alert good→bad",
      "recover bad→good",
    ]);
    // A better result that lasts without an alert before it says nothing.
    expect(feed(["bad", "good", "good"]).said).toEqual([]);
  });

  it("with 1 result to last, every change that is worse alerts at once", () => {
    expect(feed(["good", "decent"], 1).said).toEqual(["alert good→decent"]);
  });
});

describe("observeTimed (minutes down)", () => {
  const now = (iso: string) => new Date(iso);
  it("down alerts only after the minutes; up before then says nothing; up after the alert once", () => {
    let condition = firstSeen("upstream:items", "up", "2026-11-28T10:00:00.000Z");
    let step = observeTimed(condition, "down", "2026-11-28T10:00:00.000Z", "up", 5, now("2026-11-28T10:00:00Z"));
    expect(step.verdict).toBeNull();
    expect(due(step.condition, "up", 5, now("2026-11-28T10:04:59Z")).verdict).toBeNull();
    // Back before 5 minutes: nothing, and nothing due after.
    const back = observeTimed(step.condition, "up", "2026-11-28T10:03:00.000Z", "up", 5, now("2026-11-28T10:03:00Z"));
    expect(back.verdict).toBeNull();
    expect(due(back.condition, "up", 5, now("2026-11-28T11:00:00Z")).verdict).toBeNull();

    step = due(step.condition, "up", 5, now("2026-11-28T10:05:00Z"));
    expect(step.verdict).toEqual({ say: "alert", from: "up", to: "down" });
    condition = step.condition;
    // Still down: nothing more.
    expect(
      observeTimed(condition, "down", "2026-11-28T10:06:00.000Z", "up", 5, now("2026-11-28T10:06:00Z")).verdict,
    ).toBeNull();
    const up = observeTimed(condition, "up", "2026-11-28T10:10:00.000Z", "up", 5, now("2026-11-28T10:10:00Z"));
    expect(up.verdict).toEqual({ say: "recover", from: "down", to: "up" });
    expect(
      observeTimed(up.condition, "up", "2026-11-28T10:11:00.000Z", "up", 5, now("2026-11-28T10:11:00Z")).verdict,
    ).toBeNull();
  });
});
