// What a page shows when an upstream fails while the server renders it.
import { describe, expect, it } from "vitest";

import { describeUpstreamFailure, loadFromUpstream } from "@/lib/portal/failures";
import { UpstreamError, type UpstreamErrorKind } from "@/lib/upstream/errors";

describe("describeUpstreamFailure", () => {
  const failure = (kind: UpstreamErrorKind, extra: Partial<ConstructorParameters<typeof UpstreamError>[0]> = {}) =>
    describeUpstreamFailure(
      new UpstreamError({ kind, area: "reports", operation: "reports.list", detail: "x", ...extra }),
      "The reports",
    );

  it("says what failed and what to try, never the upstream's details", () => {
    expect(failure("timeout")).toEqual({
      title: "The reports could not be loaded",
      message: "The reports service did not answer in time. Try again in a moment.",
      retryable: true,
    });
    expect(failure("rate_limited", { retryAfter: "30" }).message).toBe(
      "The reports service is limiting how often Gatehouse may ask. Try again in 30 seconds.",
    );
    // Where an admin acts, never the operator's variable (issue 31, item 11).
    expect(failure("auth")).toMatchObject({
      retryable: false,
      message: expect.stringContaining("the Upstream connections page"),
    });
    expect(failure("auth").message).not.toContain("REPORTS_API_KEY");
    expect(failure("http_status", { status: 503 }).message).toBe(
      "The reports service answered with an error (HTTP 503). Try again in a moment.",
    );
    for (const kind of ["unreachable", "bad_response", "too_large", "not_found", "invalid"] as const) {
      expect(failure(kind).message).toMatch(/^The reports service /);
    }
  });

  it("loadFromUpstream turns an UpstreamError into a failure and lets a bug through", async () => {
    const failed = await loadFromUpstream("The items", () =>
      Promise.reject(new UpstreamError({ kind: "unreachable", area: "items", operation: "items.all", detail: "x" })),
    );
    expect(failed).toMatchObject({
      ok: false,
      failure: { message: "The item service cannot be reached right now. Try again in a moment." },
    });
    expect(await loadFromUpstream("The items", async () => 3)).toEqual({ ok: true, value: 3 });
    await expect(loadFromUpstream("The items", () => Promise.reject(new TypeError("bug")))).rejects.toThrow("bug");
  });
});
