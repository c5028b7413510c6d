// The audit log in words: what a row's detail says, for the person reading the ledger (the page and the API's
// `summary` alike).
import { describe, expect, it } from "vitest";

import { AUDIT_OUTCOME_LABELS, auditSummary, purchaseCodeText } from "@/lib/auth/audit-text";

describe("auditSummary", () => {
  it("names a purchase code only by its last 4 characters, when kept", () => {
    expect(purchaseCodeText({ last4: "a001" })).toBe("code ending a001");
    expect(purchaseCodeText(null)).toBe("a code (too short to show any of it)");
    expect(
      auditSummary({ action: "purchase.validate", outcome: "valid", target: null, detail: { last4: "a001" } }),
    ).toBe("Checked code ending a001: a valid purchase.");
    expect(
      auditSummary({
        action: "purchase.validate",
        outcome: "denied",
        target: null,
        detail: { error_code: "rate_limited" },
      }),
    ).toBe("Not checked (a code (too short to show any of it)): a rate limit was reached.");
  });

  it("says why a request failed or was refused, from its error code and status", () => {
    expect(
      auditSummary({
        action: "report.delete",
        outcome: "failure",
        target: null,
        detail: { error_code: "upstream_timeout", status: 504 },
      }),
    ).toBe("Failed: the service did not answer in time (HTTP 504).");
    expect(
      auditSummary({
        action: "report.delete",
        outcome: "denied",
        target: null,
        detail: { error_code: "forbidden", status: 403 },
      }),
    ).toBe("Refused: the role does not allow it (HTTP 403).");
  });

  it("tells changes in words: a user's, a report's privacy, a regeneration", () => {
    expect(
      auditSummary({
        action: "user.update",
        outcome: "success",
        target: null,
        detail: { changes: ["role", "password"], role: "viewer" },
      }),
    ).toBe("Role set to viewer and password reset.");
    expect(
      auditSummary({
        action: "report.update",
        outcome: "success",
        target: null,
        detail: { changes: ["privacy"], privacy: 2 },
      }),
    ).toBe("Changed the page privacy (now Password).");
    expect(auditSummary({ action: "report.regenerate", outcome: "success", target: null, detail: null })).toBe(
      "Results generated again.",
    );
    expect(auditSummary({ action: "auth.login", outcome: "success", target: null, detail: null })).toBe("");
  });

  it("has a label for every outcome", () => {
    expect(Object.keys(AUDIT_OUTCOME_LABELS).sort()).toEqual([
      "denied",
      "failed",
      "failure",
      "invalid",
      "success",
      "valid",
    ]);
  });
});
