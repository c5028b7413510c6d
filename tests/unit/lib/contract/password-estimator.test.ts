// The password estimator in its worker thread: the same estimates as zxcvbn-ts in process, synchronous for the
// caller, the worker ended when idle and started again by the next check, and a clear error when it cannot load.
import { ZxcvbnFactory } from "@zxcvbn-ts/core";
import { adjacencyGraphs, dictionary as common } from "@zxcvbn-ts/language-common";
import { dictionary as english, translations } from "@zxcvbn-ts/language-en";
import { afterAll, describe, expect, it, vi } from "vitest";

import { passwordEstimator } from "@/lib/contract/password-estimator";

describe("passwordEstimator", () => {
  const estimator = passwordEstimator({ keptMs: 60_000 });
  afterAll(() => estimator.stop());

  it("gives zxcvbn-ts's own score and warning, synchronously", () => {
    const inProcess = new ZxcvbnFactory({
      dictionary: { ...common, ...english },
      graphs: adjacencyGraphs,
      translations,
    });
    for (const [password, inputs] of [
      ["password1234", []],
      ["correct horse battery staple", []],
      ["Kq8#vZ2!r7Lm", []],
      ["alice.smith@example.com rules", ["alice", "smith", "example"]],
    ] as const) {
      const expected = inProcess.check(password, [...inputs]);
      expect(estimator.check(password, inputs)).toEqual({
        score: expected.score,
        warning: expected.feedback.warning || null,
      });
    }
    expect(estimator.running).toBe(true);
  });

  it("ends its worker after the idle time, and the next check starts another", async () => {
    const shortLived = passwordEstimator({ keptMs: 20 });
    expect(shortLived.running).toBe(false);
    expect(shortLived.check("password1234", []).score).toBeLessThan(2);
    expect(shortLived.running).toBe(true);
    await vi.waitFor(() => expect(shortLived.running).toBe(false), { timeout: 10_000, interval: 20 });
    expect(shortLived.check("password1234", []).warning).toMatch(/commonly used password/);
    await shortLived.stop();
    expect(shortLived.running).toBe(false);
  });

  it("says so when the estimator cannot be loaded, and keeps saying it (no hang, no crash)", async () => {
    const nowhere = passwordEstimator({ keptMs: 60_000, resolveFrom: "file:///nonexistent/gatehouse/estimator.js" });
    expect(() => nowhere.check("password1234", [])).toThrow(
      /^the password estimator failed: Cannot find module '@zxcvbn-ts\/core'/,
    );
    expect(() => nowhere.check("password1234", [])).toThrow(/^the password estimator failed/);
    await nowhere.stop();
  });
});
