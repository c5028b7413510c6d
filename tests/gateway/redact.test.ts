// Redaction of log text: registered key values and credential-looking patterns never survive.
import { describe, expect, it } from "vitest";

import { redact, redactDeep, registerSecrets } from "@/lib/log/redact";

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

  it("ignores values too short to be keys, which would shred every line", () => {
    registerSecrets(["a"]);
    expect(redact("a cat")).toBe("a cat");
  });
});
