import { describe, expect, it } from "vitest";

import { sealer } from "@/lib/seal";

const SECRET = "a-configuration-secret-of-32-characters";
const test = sealer("gatehouse test seal");

describe("sealing small secrets at rest", () => {
  it("opens what it sealed, and seals the same text differently each time (a fresh nonce)", () => {
    const first = test.seal("9f8e7d6c-5b4a-4c3d-8e2f-1a0b9c8d7e6f", SECRET);
    const second = test.seal("9f8e7d6c-5b4a-4c3d-8e2f-1a0b9c8d7e6f", SECRET);
    expect(first).not.toBe(second);
    expect(first).not.toContain("9f8e7d6c");
    expect(test.open(first, SECRET)).toBe("9f8e7d6c-5b4a-4c3d-8e2f-1a0b9c8d7e6f");
    expect(test.open(second, SECRET)).toBe("9f8e7d6c-5b4a-4c3d-8e2f-1a0b9c8d7e6f");
  });

  it("gives each purpose its own key: a seal made for one purpose does not open under another", () => {
    const codes = sealer("gatehouse bulk purchase-code seal");
    const tokens = sealer("gatehouse sso token seal");
    expect(codes.key(SECRET).equals(tokens.key(SECRET))).toBe(false);
    expect(codes.open(tokens.seal("refresh-token", SECRET), SECRET)).toBeNull();
  });

  it("refuses an altered seal, another secret's seal and text that is not a seal (null, never a throw)", () => {
    const sealed = test.seal("refresh-token", SECRET);
    const [iv, tag, body] = sealed.split(".");
    const flipped = Buffer.from(body!, "base64url");
    flipped[0] = flipped[0]! ^ 1;
    expect(test.open([iv, tag, flipped.toString("base64url")].join("."), SECRET)).toBeNull();
    expect(test.open(sealed, "another-secret-of-32-characters-long")).toBeNull();
    for (const junk of ["", "abc", "a.b.c", `${iv}.${tag}`]) expect(test.open(junk, SECRET)).toBeNull();
  });

  it("binds a context in as associated data: the seal opens only with the same context", () => {
    const sealed = test.seal("upstream-key-of-area-a", SECRET, "upstream key reports");
    expect(test.open(sealed, SECRET, "upstream key reports")).toBe("upstream-key-of-area-a");
    expect(test.open(sealed, SECRET, "upstream key items")).toBeNull();
    expect(test.open(sealed, SECRET)).toBeNull();
    expect(test.open(test.seal("no context", SECRET), SECRET, "upstream key reports")).toBeNull();
  });

  it("seals with the first of several secrets (the newest) and opens with any, strings or bytes alike", () => {
    const older = Buffer.alloc(32, 7);
    const newer = Buffer.alloc(32, 9);
    const sealedBefore = test.seal("kept", older);
    const sealedAfter = test.seal("kept", [newer, older]);
    expect(test.open(sealedBefore, [newer, older])).toBe("kept");
    expect(test.open(sealedAfter, newer)).toBe("kept");
    expect(test.open(sealedAfter, older)).toBeNull();
    // A secret is its bytes: given as a string or as a Buffer, it is the same key.
    expect(test.open(test.seal("kept", "same"), Buffer.from("same"))).toBe("kept");
    expect(() => test.seal("kept", [])).toThrow("gatehouse test seal: no secret to seal with");
  });
});
