// Area B routes of the portal API over real HTTP (next start ↔ sandbox): account, items, one item and purchase
// validation — what they answer, every validation error, and the documented "errors" that are answers.
import { beforeEach, describe, expect, it } from "vitest";

import { NO_LIFECYCLE } from "@/lib/contract/purchase-lifecycle";
import { AccountSchema, ItemSchema } from "@/lib/contract/items";
import { PurchaseSchema } from "@/lib/contract/purchases";
import { FIXED_PURCHASE_CODES } from "@/lib/sandbox";

import { setUpGateway } from "@/tests/support/set-up-gateway";

/** Signed in as the admin, who may use every route: these tests are about the gateway, not about roles. */
const { sandbox, gateway, client: api } = setUpGateway({ signIn: "admin" });
beforeEach(async () => {
  await sandbox.clearRequests();
});

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const validate = (
  body: unknown,
  headers: Record<string, string> = { "Content-Type": "application/json" },
): RequestInit => ({
  method: "POST",
  headers,
  body: typeof body === "string" ? body : JSON.stringify(body),
});

async function expectFieldError(path: string, field: string, init?: RequestInit) {
  const res = await api.request(path, init);
  expect(res.status, res.text).toBe(400);
  expect(res.json.error.code).toBe("invalid_input");
  expect(Object.keys(res.json.error.fields)).toEqual([field]);
  expect(await sandbox.requests()).toEqual([]);
}

describe("GET /api/account", () => {
  it("answers the account with numbers as numbers and timestamps in ISO 8601 UTC", async () => {
    const res = await api.request("/api/account");
    expect(res.status).toBe(200);
    const account = AccountSchema.parse(res.json.data);
    expect(typeof account.balance).toBe("number");
    expect(account.registered_at).toMatch(ISO_UTC);
    expect(account.name.full_name).toBe(`${account.name.firstname} ${account.name.lastname}`);
  });

  it("refuses query parameters", async () => {
    await expectFieldError("/api/account?api_key=mine", "api_key");
  });
});

describe("GET /api/items", () => {
  it("answers every item of the account, media as the document says per kind", async () => {
    const res = await api.request("/api/items");
    expect(res.status).toBe(200);
    const items = res.json.data.map((item: unknown) => ItemSchema.parse(item));
    expect(items.length).toBeGreaterThanOrEqual(24);
    for (const item of items) expect(item.published_at).toMatch(ISO_UTC);
    const audio = items.filter((i: { media: Record<string, unknown> }) => "preview_audio" in i.media);
    const video = items.filter((i: { media: Record<string, unknown> }) => "preview_video" in i.media);
    expect(audio.length).toBeGreaterThan(0);
    expect(video.length).toBeGreaterThan(0);
    for (const item of audio) expect(item.media).not.toHaveProperty("preview_image");
  });
});

describe("GET /api/items/{id}", () => {
  it("answers one item of the account", async () => {
    const list = await api.request("/api/items");
    const first = list.json.data[0];
    const res = await api.request(`/api/items/${first.id}`);
    expect(res.status).toBe(200);
    expect(res.json.data).toEqual(first);
  });

  it.each(["abc", "0", "-3", "2.5", "99999999999999999"])("id %s → 400 naming id", async (id) => {
    await expectFieldError(`/api/items/${id}`, "id");
  });

  it("answers 404 for an item the account does not have (upstream: Item Not Found)", async () => {
    const res = await api.request("/api/items/987654");
    expect(res.status).toBe(404);
    expect(res.json.error).toMatchObject({
      code: "not_found",
      message: "There is no item with id 987654 in this account.",
    });
  });
});

describe("POST /api/purchases/validate", () => {
  it("a code with active support: valid, with the purchase and supported_until in the future", async () => {
    const res = await api.request("/api/purchases/validate", validate({ purchase_code: FIXED_PURCHASE_CODES.active }));
    expect(res.status).toBe(200);
    expect(res.json.data.valid).toBe(true);
    const purchase = PurchaseSchema.parse(res.json.data.purchase);
    expect(purchase.purchase_code).toBe(FIXED_PURCHASE_CODES.active);
    expect(purchase.supported_until).toMatch(ISO_UTC);
    expect(typeof purchase.price).toBe("number");
    expect(typeof purchase.downloaded).toBe("boolean");
  });

  it("a code whose support expired: valid, supported_until in the past", async () => {
    const res = await api.request("/api/purchases/validate", validate({ purchase_code: FIXED_PURCHASE_CODES.expired }));
    expect(res.json.data.valid).toBe(true);
    expect(res.json.data.purchase.supported_until < new Date().toISOString()).toBe(true);
  });

  it("a code without support: valid, supported_until omitted", async () => {
    const res = await api.request("/api/purchases/validate", validate({ purchase_code: FIXED_PURCHASE_CODES.none }));
    expect(res.json.data.valid).toBe(true);
    expect(res.json.data.purchase).not.toHaveProperty("supported_until");
  });

  it("an unknown code is an answer, not an error: valid false with the upstream's message", async () => {
    const res = await api.request(
      "/api/purchases/validate",
      validate({ purchase_code: "44444444-4444-4444-8444-444444444444" }),
    );
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      data: {
        valid: false,
        message: "Invalid purchase code",
        checked_code: "44444444-4444-4444-8444-444444444444",
        notes: [],
        history: { previous_checks: 0, first_checked_at: null, first_checked_by: null },
        suggestion: null,
        stale: false,
        lifecycle: NO_LIFECYCLE,
      },
    });
  });

  it("trims surrounding spaces from a pasted code", async () => {
    await api.request("/api/purchases/validate", validate({ purchase_code: `  ${FIXED_PURCHASE_CODES.active}\n` }));
    expect((await sandbox.requests())[0]?.form?.purchase_code).toBe(FIXED_PURCHASE_CODES.active);
  });

  it.each([
    [{}, "purchase_code"],
    [{ purchase_code: "" }, "purchase_code"],
    [{ purchase_code: "   " }, "purchase_code"],
    [{ purchase_code: 1234 }, "purchase_code"],
    [{ purchase_code: "with space inside" }, "purchase_code"],
    [{ purchase_code: "x".repeat(101) }, "purchase_code"],
    [{ purchase_code: FIXED_PURCHASE_CODES.active, api_key: "mine" }, "api_key"],
  ])("%j → 400 naming %s", async (body, field) => {
    await expectFieldError("/api/purchases/validate", field, validate(body));
  });

  it("answers malformed JSON with 400 and a form body with 415", async () => {
    const bad = await api.request("/api/purchases/validate", validate("{purchase_code:"));
    expect(bad.status).toBe(400);
    expect(bad.json.error.code).toBe("invalid_json");
    const form = await api.request(
      "/api/purchases/validate",
      validate(`purchase_code=${FIXED_PURCHASE_CODES.active}`, { "Content-Type": "application/x-www-form-urlencoded" }),
    );
    expect(form.status).toBe(415);
    expect(await sandbox.requests()).toEqual([]);
  });
});

describe("key custody", () => {
  it("no canary key appeared in any response body, response header or log line of this file", () => {
    expect(() => gateway.assertNoKeyLeaked()).not.toThrow();
  });
});
