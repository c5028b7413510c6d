// Redaction of log text: registered key values and credential-looking patterns never survive.
import { describe, expect, it } from "vitest";

import { redact, redactDeep, redactedJson, redactSecrets, registerSecrets } from "@/lib/log/redact";

describe("redact", () => {
  registerSecrets(["registered-secret-value-1"]);

  it("removes registered key values wherever they appear", () => {
    expect(redact("failed with registered-secret-value-1 inside")).toBe("failed with [REDACTED] inside");
  });

  it("removes api_key values from query strings and JSON, and Bearer tokens", () => {
    expect(redact("GET /market/api/items/all?api_key=abc123&item_id=4")).toBe(
      "GET /market/api/items/all?api_key=[REDACTED]&item_id=4",
    );
    expect(redact('{"api_key":"abc123","x":1}')).toBe('{"api_key":"[REDACTED]","x":1}');
    expect(redact("Authorization: Bearer abc.def-123")).toBe("Authorization: Bearer [REDACTED]");
    expect(redact(`token gth_${"a1B2".repeat(9)}xy, secret whsec_${"QUJD".repeat(10)}AB==.`)).toBe(
      "token [REDACTED], secret [REDACTED].",
    );
  });

  it("redacts deeply, and replaces fields named like credentials whole", () => {
    const out = redactDeep({
      message: "token registered-secret-value-1",
      nested: [{ headers: { authorization: "Bearer zzz", cookie: "session=1", accept: "application/json" } }],
      api_key: 12345,
    });
    expect(out).toEqual({
      message: "token [REDACTED]",
      nested: [{ headers: { authorization: "[REDACTED]", cookie: "[REDACTED]", accept: "application/json" } }],
      api_key: "[REDACTED]",
    });
  });

  it("redactedJson gives the same line as redactDeep, in one pass over the text", () => {
    const fields = {
      message: "token registered-secret-value-1",
      nested: [{ headers: { authorization: "Bearer zzz", cookie: "session=1", accept: "application/json" } }],
      api_key: 12345,
      url: "https://x.example/?api_key=abc123&b=2",
    };
    expect(JSON.parse(redactedJson(fields))).toEqual(redactDeep(fields));
  });

  it("redactedJson removes an api_key quoted inside a string, and cuts a cycle", () => {
    const body = JSON.stringify({ api_key: "abc123", ok: false });
    expect(JSON.parse(redactedJson({ upstream_body: body }))).toEqual({
      upstream_body: '{"api_key":"[REDACTED]","ok":false}',
    });
    const looped: Record<string, unknown> = { name: "loop" };
    looped.self = looped;
    expect(redactedJson(looped)).toContain('"[…]"');
  });

  it("ignores values too short to be keys, which would shred every line", () => {
    registerSecrets(["a"]);
    expect(redact("a cat")).toBe("a cat");
  });
});

describe("a registered key in other encodings", () => {
  const KEY = "Kx9-registered-key-0123456789";
  registerSecrets([KEY]);
  const b64 = (text: string) => Buffer.from(text).toString("base64");
  const b64url = (text: string) => Buffer.from(text).toString("base64url");
  const everyCharPercent = (text: string) =>
    [...Buffer.from(text)].map((byte) => `%${byte.toString(16).toUpperCase()}`).join("");

  it.each([
    ["upper case", KEY.toUpperCase()],
    ["lower case", KEY.toLowerCase()],
    ["percent-encoded, every character", everyCharPercent(KEY)],
    ["percent-encoded, lower-case hex", everyCharPercent(KEY).toLowerCase()],
    ["percent-encoded twice", encodeURIComponent(everyCharPercent(KEY))],
    ["hex", Buffer.from(KEY).toString("hex")],
    ["HEX", Buffer.from(KEY).toString("hex").toUpperCase()],
    ["base64", b64(KEY)],
    ["base64 inside Basic credentials (offset 1)", b64(`u:${KEY}`)],
    ["base64 at offset 2", b64(`ab:${KEY}:z`)],
    ["base64url", b64url(`?${KEY}`)],
    ["\\u-escaped", [...KEY].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`).join("")],
  ])("removes it %s", (_, form) => {
    const out = redact(`upstream said: ${form} (end)`);
    expect(out).not.toContain(form);
    expect(out).toContain("[REDACTED]");
    expect(out.startsWith("upstream said: ")).toBe(true);
  });

  it("redactSecrets removes keys only, leaving words that merely look like credentials", () => {
    expect(redactSecrets(`Bearer of news api_key=demo ${KEY.toUpperCase()}`)).toBe(
      "Bearer of news api_key=demo [REDACTED]",
    );
  });
});
