// The token body's rules, before any store: one lifetime, known scopes, a name, a bounded list of ranges.
import { describe, expect, it } from "vitest";

import { TokenCreateBodySchema } from "@/lib/contract/tokens";

const fieldsOf = (input: unknown) => {
  const result = TokenCreateBodySchema.safeParse(input);
  return result.success ? [] : result.error.issues.map((issue) => issue.path.join("."));
};

describe("TokenCreateBodySchema", () => {
  it("takes a name, scopes and exactly one lifetime", () => {
    expect(fieldsOf({ name: "helpdesk", scopes: ["purchases:validate"], expires_in_days: 90 })).toEqual([]);
    expect(fieldsOf({ name: "helpdesk", scopes: ["audit:read"], expires_at: "2027-01-31T00:00:00Z" })).toEqual([]);
    expect(
      fieldsOf({
        name: "bot",
        scopes: ["reports:read"],
        never_expires: true,
        user_id: "00000000-0000-4000-8000-000000000000",
      }),
    ).toEqual([]);
  });

  it("refuses no lifetime or two of them, unknown or repeated scopes, an empty name, unknown fields", () => {
    expect(fieldsOf({ name: "x", scopes: ["reports:read"] })).toEqual(["expires_in_days"]);
    expect(fieldsOf({ name: "x", scopes: ["reports:read"], expires_in_days: 7, never_expires: true })).toEqual([
      "expires_in_days",
    ]);
    expect(fieldsOf({ name: "x", scopes: ["users:manage"], expires_in_days: 7 })).toEqual(["scopes.0"]);
    expect(fieldsOf({ name: "x", scopes: ["reports:read", "reports:read"], expires_in_days: 7 })).toEqual(["scopes"]);
    expect(fieldsOf({ name: "x", scopes: [], expires_in_days: 7 })).toEqual(["scopes"]);
    expect(fieldsOf({ name: " ", scopes: ["reports:read"], expires_in_days: 7 })).toEqual(["name"]);
    expect(fieldsOf({ name: "x", scopes: ["reports:read"], expires_in_days: 8 })).toEqual(["expires_in_days"]);
    expect(fieldsOf({ name: "x", scopes: ["reports:read"], expires_in_days: 7, secret: "gth_x" })).toEqual([""]);
    expect(
      fieldsOf({ name: "x", scopes: ["reports:read"], expires_in_days: 7, allowed_ips: Array(21).fill("10.0.0.1") }),
    ).toEqual(["allowed_ips"]);
  });
});
