import { describe, expect, it } from "vitest";

import { openText, sealKey, sealText } from "@/lib/seal";

const SECRET = "a-configuration-secret-of-32-characters";

describe("sealing small secrets at rest", () => {
  it("opens what it sealed, and seals the same text differently each time (a fresh nonce)", () => {
    const key = sealKey(SECRET, "gatehouse test seal");
    const first = sealText("9f8e7d6c-5b4a-4c3d-8e2f-1a0b9c8d7e6f", key);
    const second = sealText("9f8e7d6c-5b4a-4c3d-8e2f-1a0b9c8d7e6f", key);
    expect(first).not.toBe(second);
    expect(first).not.toContain("9f8e7d6c");
    expect(openText(first, key)).toBe("9f8e7d6c-5b4a-4c3d-8e2f-1a0b9c8d7e6f");
    expect(openText(second, key)).toBe("9f8e7d6c-5b4a-4c3d-8e2f-1a0b9c8d7e6f");
  });

  it("gives each purpose its own key: a seal made for one purpose does not open under another", () => {
    const codes = sealKey(SECRET, "gatehouse bulk purchase-code seal");
    const tokens = sealKey(SECRET, "gatehouse sso token seal");
    expect(codes.equals(tokens)).toBe(false);
    expect(openText(sealText("refresh-token", tokens), codes)).toBeNull();
  });

  it("refuses an altered seal, another secret's seal and text that is not a seal (null, never a throw)", () => {
    const key = sealKey(SECRET, "gatehouse test seal");
    const sealed = sealText("refresh-token", key);
    const [iv, tag, body] = sealed.split(".");
    const flipped = Buffer.from(body!, "base64url");
    flipped[0] = flipped[0]! ^ 1;
    expect(openText([iv, tag, flipped.toString("base64url")].join("."), key)).toBeNull();
    expect(openText(sealed, sealKey("another-secret-of-32-characters-long", "gatehouse test seal"))).toBeNull();
    for (const junk of ["", "abc", "a.b.c", `${iv}.${tag}`]) expect(openText(junk, key)).toBeNull();
  });
});
