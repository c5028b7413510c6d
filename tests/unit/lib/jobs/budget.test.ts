// The per-area budget of background work: its size, and the limiter's window that keeps any minute within it.
// (The budget at work, across runs and across instances on Redis: tests/unit/lib/reports/schedule-jobs.test.ts.)
import { describe, expect, it } from "vitest";

import { backgroundCallsPerMinute, budgetWindow } from "@/lib/jobs/budget";

describe("backgroundCallsPerMinute and budgetWindow", () => {
  it("spend the share of the budget in whole seconds, never more in a minute, never nothing", () => {
    expect(backgroundCallsPerMinute(60, 0.5)).toBe(30);
    expect(budgetWindow(30)).toEqual({ points: 1, seconds: 2 });
    expect(budgetWindow(45)).toEqual({ points: 1, seconds: 2 }); // 30 a minute: a call every 1.33 s is finer than Redis counts
    expect(budgetWindow(121)).toEqual({ points: 1, seconds: 1 });
    expect(budgetWindow(600)).toEqual({ points: 9, seconds: 1 }); // 61 windows of 9: 549
    expect(budgetWindow(backgroundCallsPerMinute(1, 0.001))).toEqual({ points: 1, seconds: 3600 });
  });
});
