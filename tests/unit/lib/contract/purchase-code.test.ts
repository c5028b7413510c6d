// What of a purchase code may be shown: its last 4 characters when it has at least 16, else none.
import { describe, expect, it } from "vitest";

import { PURCHASE_CODE_LAST4_MIN_LENGTH, purchaseCodeLast4 } from "@/lib/contract/purchase-code";

describe("purchaseCodeLast4", () => {
  it("keeps the last 4 characters of a code of 16 or more, and none of a shorter one", () => {
    expect(PURCHASE_CODE_LAST4_MIN_LENGTH).toBe(16);
    expect(purchaseCodeLast4("aaaaaaaa-1111-4111-8111-11111111a001")).toBe("a001");
    expect(purchaseCodeLast4("1234567890abcdef")).toBe("cdef");
    expect(purchaseCodeLast4("1234567890abcde")).toBe("");
    expect(purchaseCodeLast4("12345678")).toBe("");
    expect(purchaseCodeLast4("1234")).toBe("");
    expect(purchaseCodeLast4("1")).toBe("");
  });

  it("counts characters, not UTF-16 units, and ignores the spaces around a code", () => {
    expect(purchaseCodeLast4(`  ${"x".repeat(12)}ab😀d  `)).toBe("ab😀d");
    expect(purchaseCodeLast4(`${"😀".repeat(15)}`)).toBe("");
  });
});
