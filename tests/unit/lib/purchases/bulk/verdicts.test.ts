// What a bulk check's code comes to when the item service gives no purchase, on either job provider.
import { describe, expect, it } from "vitest";

import { failureReason, NOT_CONFIGURED, settledBy, SLOWED_DOWN_TOO_OFTEN } from "@/lib/purchases/bulk/verdicts";
import { CircuitOpenError, UpstreamError } from "@/lib/upstream/errors";

const error = (kind: UpstreamError["kind"], more: { status?: number; upstreamMessage?: string } = {}) =>
  new UpstreamError({ kind, area: "items", operation: "items.validatePurchase", detail: "refused", ...more });

describe("bulk check verdicts", () => {
  it("settles a refused code as invalid, in the item service's words when it gave some", () => {
    expect(settledBy(error("invalid", { upstreamMessage: "No sale belongs to this code" }))).toEqual({
      status: "invalid",
      reason: "No sale belongs to this code",
    });
    expect(settledBy(error("not_found"))).toMatchObject({
      status: "invalid",
      reason: expect.stringMatching(/refused this code\.$/),
    });
  });

  it("settles a refused key as a failure an administrator must fix, not to be retried", () => {
    const settled = settledBy(error("auth", { status: 401 }));
    expect(settled).toMatchObject({ status: "failed", reason: expect.stringContaining("ITEMS_API_KEY") });
    expect(settled).not.toHaveProperty("retryable");
  });

  it("leaves what a later try may pass to that try: rate limits, network failures, an open breaker", () => {
    for (const kind of ["rate_limited", "timeout", "unreachable", "http_status"] as const)
      expect(settledBy(error(kind))).toBeNull();
    expect(
      settledBy(new CircuitOpenError({ area: "items", operation: "items.validatePurchase", retryAfterSeconds: 5 })),
    ).toBeNull();
  });

  it("says why a code failed after its tries, and that the item service is not configured", () => {
    expect(failureReason(error("timeout"), 3)).toMatch(/, after 3 tries\.$/);
    expect(
      failureReason(
        new CircuitOpenError({ area: "items", operation: "items.validatePurchase", retryAfterSeconds: 5 }),
        2,
      ),
    ).toMatch(/is not answering \(Gatehouse stopped calling it for a while\), after 2 tries/);
    expect(NOT_CONFIGURED).toMatchObject({ status: "failed", reason: expect.stringContaining("ITEMS_API_BASE_URL") });
    expect(SLOWED_DOWN_TOO_OFTEN).toMatchObject({ status: "failed", retryable: true });
  });
});
