// The licence API's input (lib/contract/licences.ts): a request with a domain or an id (exactly one), sizes capped,
// a sentence for each refusal; a policy's limits and never-counted patterns as an admin may write them.
import { describe, expect, it } from "vitest";

import { DEFAULT_LICENCE_POLICY, LicencePolicyBodySchema, LicenceRequestSchema } from "@/lib/contract/licences";

const request = (instance: unknown, extra: Record<string, unknown> = {}) =>
  LicenceRequestSchema.safeParse({
    purchase_code: "11111111-1111-4111-8111-111111111111",
    item_id: 7,
    instance,
    ...extra,
  });
const messages = (result: { success: boolean; error?: { issues: Array<{ path: PropertyKey[]; message: string }> } }) =>
  (result.error?.issues ?? []).map((issue) => `${issue.path.join(".")}: ${issue.message}`);

describe("LicenceRequestSchema", () => {
  it("takes a domain or an id, with a name and a nonce", () => {
    expect(request({ domain: "shop.example", name: "Shop" }, { nonce: "n" }).success).toBe(true);
    expect(request({ id: "machine-1" }).success).toBe(true);
  });

  it("refuses both, neither, unknown fields and oversized values, each with a sentence", () => {
    expect(messages(request({ domain: "a.example", id: "b" }))).toEqual([
      "instance: must have either a domain or an id (exactly one of them)",
    ]);
    expect(messages(request({}))).toEqual(["instance: must have either a domain or an id (exactly one of them)"]);
    expect(messages(request({ domain: "a.example", port: 1 }))[0]).toMatch(/^instance: Unrecognized key/);
    expect(messages(request({ id: "x".repeat(201) }))).toEqual(["instance.id: must be at most 200 characters"]);
    expect(messages(request({ domain: "a.example" }, { item_id: -1 }))).toEqual([
      "item_id: must be a positive item id",
    ]);
    expect(messages(request({ domain: "a.example" }, { nonce: "n".repeat(129) }))).toEqual([
      "nonce: must be at most 128 characters",
    ]);
  });
});

describe("LicencePolicyBodySchema", () => {
  it("takes the defaults and lower-cases patterns", () => {
    expect(LicencePolicyBodySchema.parse(DEFAULT_LICENCE_POLICY)).toEqual(DEFAULT_LICENCE_POLICY);
    expect(LicencePolicyBodySchema.parse({ ...DEFAULT_LICENCE_POLICY, never_count: [" *.TEST "] }).never_count).toEqual(
      ["*.test"],
    );
  });

  it.each(["*foo*", "a.*.b", "http://x.test", "*"])("refuses the pattern %j", (pattern) => {
    const result = LicencePolicyBodySchema.safeParse({ ...DEFAULT_LICENCE_POLICY, never_count: [pattern] });
    expect(messages(result)).toEqual([
      "never_count.0: must be a domain (localhost), a wildcard before one (*.test) or after its first label (staging.*)",
    ]);
  });

  it("refuses a negative limit and one above the cap", () => {
    expect(
      messages(LicencePolicyBodySchema.safeParse({ ...DEFAULT_LICENCE_POLICY, limits: { regular: -1, extended: 5 } })),
    ).toEqual(["limits.regular: must be 0 or more"]);
    expect(
      messages(
        LicencePolicyBodySchema.safeParse({ ...DEFAULT_LICENCE_POLICY, limits: { regular: 1, extended: 1001 } }),
      ),
    ).toEqual(["limits.extended: must be at most 1000"]);
  });
});
