// The bulk check pages' words and sums: a pasted list counted as the gateway will count it, and a running job
// in words.
import { describe, expect, it } from "vitest";

import {
  codesLeft,
  isSettled,
  describeBatch,
  jobResultsApiPath,
  jobResultsQueryString,
  parseJobResultsParams,
  percentDone,
  statusAnnouncement,
  summariseBatch,
  timeLeftText,
  codesText,
  type JobCounts,
} from "@/lib/portal/purchase-bulk";
import { prepareBatch } from "@/lib/purchases/bulk/batch";

const ACTIVE = "11111111-1111-4111-8111-111111111111";

const EXPIRED = "22222222-2222-4222-8222-222222222222";

describe("the bulk form's count", () => {
  it.each([
    [[], "No codes yet."],
    [[ACTIVE], "1 code — 1 will be checked"],
    [[ACTIVE, ACTIVE], "2 codes, 1 duplicate — 1 will be checked"],
    [[ACTIVE, ` ${ACTIVE}\u200b`, EXPIRED, ` ${EXPIRED} `, ACTIVE], "5 codes, 3 duplicates — 2 will be checked"],
  ])("%j → %s", (codes, sentence) => {
    expect(describeBatch(summariseBatch(codes))).toBe(sentence);
  });

  it("counts like the gateway: same duplicates, same distinct codes, the same codes refused", () => {
    const lookalike = `${ACTIVE.slice(0, 35)}\u0430`;
    const batches = [
      [ACTIVE, EXPIRED, ACTIVE],
      [`\ufeff${ACTIVE}`, ACTIVE.toUpperCase(), `${ACTIVE}\u200d`, `１${ACTIVE.slice(1)}`],
      [lookalike, lookalike, ` ${lookalike} `, "", "   ", "\u0007code"],
      Array.from({ length: 40 }, (_, n) => `${n % 7}-code`),
    ];
    for (const batch of batches) {
      const ours = summariseBatch(batch);
      const gateway = prepareBatch(batch);
      expect(ours.duplicates).toBe(gateway.duplicates);
      expect(ours.distinct).toBe(gateway.codes.length);
      expect(ours.refused.map((code) => code.reason)).toEqual(
        gateway.codes.filter((code) => code.refused).map((code) => code.reason),
      );
    }
  });

  it("names each refused code by its place in the list and the reason", () => {
    const summary = summariseBatch([ACTIVE, `${EXPIRED.slice(0, 35)}\u0430`]);
    expect(summary.problem).toBeNull();
    expect(summary.refused).toHaveLength(1);
    expect(summary.refused[0]).toMatchObject({ position: 2, code: `${EXPIRED.slice(0, 35)}\u0430` });
    expect(summary.refused[0]!.reason).toMatch(/36.*Cyrillic.*U\+0430/);
    expect(summariseBatch([]).problem).toBe("Paste at least one purchase code, or choose a file.");
  });
});

describe("a running job in words", () => {
  const job = (patch: Partial<JobCounts>): JobCounts => ({
    status: "running",
    total: 200,
    done: 0,
    valid: 0,
    invalid: 0,
    failed: 0,
    cancelled: 0,
    ...patch,
  });

  it.each([
    [null, "running", "Estimating the time left"],
    [0, "running", "Less than a minute left"],
    [59, "waiting", "Less than a minute left"],
    [60, "running", "About 1 min left"],
    [1_770, "running", "About 30 min left"],
    [3_600, "running", "About 1 h left"],
    [5_400, "running", "About 1 h 30 min left"],
    [120, "done", null],
    [120, "cancelled", null],
  ] as const)("%j seconds, %s → %s", (eta, status, text) => {
    expect(timeLeftText(eta, status)).toBe(text);
  });

  it("percent done is whole, and 100 only when every code is done", () => {
    expect(percentDone(job({ done: 0 }))).toBe(0);
    expect(percentDone(job({ done: 1 }))).toBe(0);
    expect(percentDone(job({ done: 199 }))).toBe(99);
    expect(percentDone({ total: 1000, done: 999 })).toBe(99);
    expect(percentDone(job({ done: 200 }))).toBe(100);
  });

  it("codes left, and what a screen reader hears at each status", () => {
    expect(codesLeft(job({ done: 120 }))).toBe(80);
    expect(codesLeft(job({ status: "cancelled", done: 120, cancelled: 80 }))).toBe(0);
    expect(statusAnnouncement(job({ status: "queued", total: 1 }))).toBe("Queued: 1 code will be checked shortly.");
    expect(statusAnnouncement(job({}))).toBe("Checking 200 codes.");
    expect(statusAnnouncement(job({ status: "waiting" }))).toMatch(
      /^Paused: the item service asked Gatehouse to slow down/,
    );
    expect(statusAnnouncement(job({ status: "done", done: 200, valid: 180, invalid: 15, failed: 5 }))).toBe(
      "Finished: 180 valid, 15 invalid, 5 failed.",
    );
    expect(statusAnnouncement(job({ status: "done", done: 3, valid: 1, invalid: 0, refused: 2, failed: 0 }))).toBe(
      "Finished: 1 valid, 0 invalid, 0 failed, 2 not purchase codes.",
    );
    // Codes seen valid before and refused now are said apart, when there are some.
    expect(statusAnnouncement(job({ status: "done", done: 5, valid: 3, revoked: 1, invalid: 1, failed: 0 }))).toBe(
      "Finished: 3 valid, 1 revoked, 1 invalid, 0 failed.",
    );
    expect(statusAnnouncement(job({ status: "cancelled", done: 120, valid: 100, invalid: 20, cancelled: 80 }))).toBe(
      "Cancelled: 120 checked (100 valid, 20 invalid, 0 failed), 80 codes not checked.",
    );
    // Cancelled with 3 checks under way: the counts are not final until they land, and the page says so.
    const settling = job({ status: "cancelled", done: 120, valid: 100, invalid: 20, cancelled: 77, settling: true });
    expect(statusAnnouncement(settling)).toBe("Cancelling: 3 checks under way will finish first.");
    expect([
      isSettled(settling),
      isSettled({ ...settling, settling: false }),
      isSettled(job({ status: "done" })),
      isSettled(job({})),
    ]).toEqual([false, true, true, false]);
  });
});

describe("a job's results as a view", () => {
  it("reads page, filter and search from the URL, ignoring what is not theirs", () => {
    expect(parseJobResultsParams(new URLSearchParams("status=support_expired&q=%20ab12%20&page=3"))).toEqual({
      status: "support_expired",
      q: "ab12",
      page: 3,
    });
    expect(parseJobResultsParams(new URLSearchParams("status=maybe&page=0&q=%20"))).toEqual({});
    expect(parseJobResultsParams({ q: "x".repeat(150) }).q).toHaveLength(100);
  });

  it("writes them back in one order, page 1 left out, for the page and the API", () => {
    expect(jobResultsQueryString({ page: 2, q: "AB 12", status: "failed" })).toBe("?status=failed&q=AB+12&page=2");
    expect(jobResultsQueryString({ page: 1 })).toBe("");
    const id = "0b9f3c1e-0000-4000-8000-000000000001";
    expect(jobResultsApiPath(id, { status: "retryable" })).toBe(`/api/purchases/bulk/${id}/results?status=retryable`);
    const query = { status: "invalid" as const, q: "ffff", page: 4 };
    expect(parseJobResultsParams(new URLSearchParams(jobResultsQueryString(query)))).toEqual(query);
  });

  it("copies the valid codes, or the invalid ones (revoked too), one a line", () => {
    const results = [
      { code: "a", status: "valid" },
      { code: "b", status: "invalid" },
      { code: "c", status: "valid" },
      { code: "d", status: "failed" },
      { code: "e", status: "revoked" },
    ] as const;
    expect(codesText(results, "valid")).toBe("a\nc");
    expect(codesText(results, "invalid")).toBe("b\ne");
    expect(codesText([], "valid")).toBe("");
  });
});
