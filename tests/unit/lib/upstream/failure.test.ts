// An upstream failure in words: one phrase per kind, whether trying again may help, and the upstream's own
// message kept apart for the caller to redact. The gateway's errors, the pages and the bulk checks build on it.
import { describe, expect, it } from "vitest";

import { fromUpstreamError } from "@/lib/api/errors";
import { describeUpstreamFailure } from "@/lib/portal/failures";
import { CircuitOpenError, UpstreamError, type UpstreamErrorKind } from "@/lib/upstream/errors";
import { upstreamFailureWords } from "@/lib/upstream/failure";

const failure = (kind: UpstreamErrorKind, extra: Partial<ConstructorParameters<typeof UpstreamError>[0]> = {}) =>
  new UpstreamError({ kind, area: "items", operation: "items.validate", detail: "test", ...extra });

describe("upstreamFailureWords", () => {
  it("says what happened for every kind", () => {
    const said = (kind: UpstreamErrorKind, extra = {}) => upstreamFailureWords(failure(kind, extra));
    expect(said("timeout")).toEqual({ what: "did not answer in time", retryable: true });
    expect(said("unreachable")).toEqual({ what: "cannot be reached right now", retryable: true });
    expect(said("bad_response")).toEqual({ what: "sent an answer Gatehouse cannot read", retryable: true });
    expect(said("too_large")).toEqual({ what: "sent an answer Gatehouse cannot read", retryable: true });
    expect(said("auth")).toEqual({ what: "refused Gatehouse's key", retryable: false });
    expect(said("rate_limited")).toEqual({ what: "is limiting how often Gatehouse may ask", retryable: true });
    expect(said("http_status", { status: 503, upstreamMessage: "down" })).toEqual({
      what: "answered with an error (HTTP 503)",
      retryable: true,
      said: "down",
    });
    expect(said("not_found")).toEqual({ what: "does not know it", retryable: false });
    expect(said("invalid", { upstreamMessage: "bad field" })).toEqual({
      what: "refused the input",
      retryable: false,
      said: "bad field",
    });
  });

  it("says when an open breaker lets Gatehouse ask again", () => {
    expect(
      upstreamFailureWords(new CircuitOpenError({ area: "reports", operation: "reports.list", retryAfterSeconds: 12 })),
    ).toEqual({
      what: "is not answering; retrying in 12 s",
      retryable: true,
    });
  });

  it("is what the gateway's error answer and the page's failure card both say", () => {
    const timeout = failure("timeout");
    expect(fromUpstreamError(timeout, "Not found.").message).toBe(
      "The item API (area B) did not answer in time; try again later.",
    );
    expect(describeUpstreamFailure(timeout, "The items").message).toBe(
      "The item service did not answer in time. Try again in a moment.",
    );
    const key = failure("auth");
    expect(fromUpstreamError(key, "Not found.").message).toBe(
      "The item API (area B) refused Gatehouse's key. An admin can replace the key: the Upstream connections page (/admin/upstream) says where it is kept.",
    );
    expect(describeUpstreamFailure(key, "The items").message).toMatch(
      /^The item service refused Gatehouse's key, so nothing can be shown\./,
    );
  });
});
