// Area B (item API under /market) over real HTTP: every operation, its errors, keys, sellers and media rules; and
// the control API's sales reversed and support dates moved (POST /__sandbox/purchases/{code}).
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";

import { FIXED_PURCHASE_CODES, SANDBOX_KEYS } from "@/lib/sandbox";
import { seedSellers } from "@/lib/sandbox/seed";
import { startTestSandbox, type TestSandbox } from "@/tests/support/sandbox";

let sandbox: TestSandbox;
const CANARY_KEY = "canary-items-key";

beforeAll(async () => {
  sandbox = await startTestSandbox({ extraKeys: { items: { [CANARY_KEY]: "second" } } });
});
afterAll(async () => {
  await sandbox.close();
});

interface Item {
  id: number;
  name: string;
  category: string;
  media: Record<string, unknown>;
  price: { regular: number; extended: number };
  [field: string]: unknown;
}
interface Purchase {
  purchase_code: string;
  license_type: string;
  price: number;
  item: { id: number; name: string; url: string; media: { preview_image: string } };
  supported_until?: string;
  downloaded: boolean;
  date: string;
  [field: string]: unknown;
}

function get(path: string, query: Record<string, string> = {}): Promise<Response> {
  return fetch(`${sandbox.itemsBaseUrl}${path}?${new URLSearchParams(query)}`);
}

function post(path: string, form: Record<string, string>, query = ""): Promise<Response> {
  return fetch(`${sandbox.itemsBaseUrl}${path}${query}`, { method: "POST", body: new URLSearchParams(form) });
}

async function expectError(res: Response | Promise<Response>, status: number, msg: string): Promise<void> {
  const response = await res;
  expect(response.status).toBe(status);
  expect(response.headers.get("content-type")).toBe("application/json");
  expect(await response.json()).toEqual({ status: "error", msg });
}

async function allItems(key: string): Promise<Item[]> {
  const res = await get("/api/items/all", { api_key: key });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { status: string; items: Item[] };
  expect(body.status).toBe("success");
  return body.items;
}

async function validate(key: string, code: string): Promise<Response> {
  return post("/api/purchases/validation", { api_key: key, purchase_code: code });
}

describe("keys", () => {
  it.each([
    ["/api/account/details", {}],
    ["/api/items/all", {}],
    ["/api/items/item", { item_id: "100001" }],
  ])("GET %s without api_key, with an empty or unknown one is 401 Invalid request", async (path, query) => {
    await expectError(get(path, query), 401, "Invalid request");
    await expectError(get(path, { ...query, api_key: "" }), 401, "Invalid request");
    await expectError(get(path, { ...query, api_key: "not-a-key" }), 401, "Invalid request");
    await expectError(get(path, { ...query, api_key: SANDBOX_KEYS.reports }), 401, "Invalid request");
  });

  it("POST purchases/validation takes the key from the form body only", async () => {
    await expectError(
      post("/api/purchases/validation", { purchase_code: FIXED_PURCHASE_CODES.active }),
      401,
      "Invalid request",
    );
    await expectError(validate("not-a-key", FIXED_PURCHASE_CODES.active), 401, "Invalid request");
    // A key in the URL of a POST is ignored.
    await expectError(
      post(
        "/api/purchases/validation",
        { purchase_code: FIXED_PURCHASE_CODES.active },
        `?api_key=${SANDBOX_KEYS.items}`,
      ),
      401,
      "Invalid request",
    );
  });

  it("a GET takes the key from the query string only", async () => {
    const res = await fetch(`${sandbox.itemsBaseUrl}/api/account/details`, {
      method: "GET",
      headers: { authorization: `Bearer ${SANDBOX_KEYS.items}`, "x-api-key": SANDBOX_KEYS.items },
    });
    await expectError(res, 401, "Invalid request");
  });

  it("accepts extra keys given at start, as the seller they name", async () => {
    const canary = await allItems(CANARY_KEY);
    expect(canary).toEqual(await allItems(SANDBOX_KEYS.items2));
  });
});

describe("path prefix and routing", () => {
  it("serves the documented paths only under /market", async () => {
    const bare = await fetch(`${sandbox.url}/api/account/details?api_key=${SANDBOX_KEYS.items}`);
    expect(bare.status).toBe(404);
    expect(sandbox.itemsBaseUrl).toBe(`${sandbox.url}/market`);
    expect((await get("/api/account/details", { api_key: SANDBOX_KEYS.items })).status).toBe(200);
  });

  it("answers an unknown path under /market with a 404 in the area's envelope", async () => {
    await expectError(get("/api/items/everything", { api_key: SANDBOX_KEYS.items }), 404, "Not Found");
    await expectError(get("/api/v1/items/all", { api_key: SANDBOX_KEYS.items }), 404, "Not Found");
  });

  it("answers a wrong method with 405", async () => {
    const res = get("/api/purchases/validation", {
      api_key: SANDBOX_KEYS.items,
      purchase_code: FIXED_PURCHASE_CODES.active,
    });
    expect((await res).headers.get("allow")).toBe("POST");
    await expectError(post("/api/items/all", { api_key: SANDBOX_KEYS.items }), 405, "Method Not Allowed");
  });
});

describe("GET /api/account/details", () => {
  it.each([
    [SANDBOX_KEYS.items, "bytebrush"],
    [SANDBOX_KEYS.items2, "ruizmotion"],
    [SANDBOX_KEYS.itemsEmpty, "ada-newshop"],
  ])("returns the account that owns %s", async (key, username) => {
    const res = await get("/api/account/details", { api_key: key });
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      status: string;
      data: Record<string, unknown> & { name: Record<string, string>; profile: Record<string, unknown> };
    };
    expect(body.status).toBe("success");
    expect(body.data.username).toBe(username);
    expect(Object.keys(body.data)).toEqual([
      "name",
      "username",
      "email",
      "balance",
      "currency",
      "profile",
      "registered_at",
    ]);
    expect(Object.keys(body.data.name)).toEqual(["firstname", "lastname", "full_name"]);
    expect(body.data.name.full_name).toBe(`${body.data.name.firstname} ${body.data.name.lastname}`);
    expect(Object.keys(body.data.profile)).toEqual(["heading", "description", "contact", "social_links", "media"]);
    expect(body.data.profile.media).toEqual({
      avatar: expect.stringMatching(/^https:\/\//),
      cover: expect.stringMatching(/^https:\/\//),
    });
    expect(typeof body.data.balance).toBe("number");
    expect(body.data.registered_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
  });
});

describe("GET /api/items/all", () => {
  it("returns the main seller's items across scripts, video and audio, with every documented field", async () => {
    const items = await allItems(SANDBOX_KEYS.items);
    expect(items.length).toBeGreaterThanOrEqual(24);
    expect(new Set(items.map((i) => i.category))).toEqual(new Set(["Scripts", "Video", "Audio"]));
    for (const item of items) {
      expect(Object.keys(item)).toEqual([
        "id",
        "name",
        "description",
        "category",
        "sub_category",
        "options",
        "version",
        "demo_link",
        "tags",
        "media",
        "price",
        "currency",
        "published_at",
      ]);
      expect(item.version).toMatch(/^\d+\.\d+\.\d+$/);
      expect(item.price.extended).toBeGreaterThan(item.price.regular);
    }
  });

  it("gives each item kind exactly the media the document lists", async () => {
    for (const item of await allItems(SANDBOX_KEYS.items)) {
      const keys = Object.keys(item.media);
      if (item.category === "Audio") expect(keys).toEqual(["thumbnail", "preview_audio", "screenshots"]);
      else if (item.category === "Video")
        expect(keys).toEqual(["thumbnail", "preview_image", "preview_video", "screenshots"]);
      else expect(keys).toEqual(["thumbnail", "preview_image", "screenshots"]);
    }
  });

  it("returns only the key's seller's items", async () => {
    const main = await allItems(SANDBOX_KEYS.items);
    const second = await allItems(SANDBOX_KEYS.items2);
    expect(second.length).toBeGreaterThan(0);
    const mainIds = new Set(main.map((i) => i.id));
    expect(second.some((i) => mainIds.has(i.id))).toBe(false);
  });

  it("answers the seller with no items 404 No Items Found", async () => {
    await expectError(get("/api/items/all", { api_key: SANDBOX_KEYS.itemsEmpty }), 404, "No Items Found");
  });
});

describe("GET /api/items/item", () => {
  it("returns one of the seller's own items", async () => {
    const [, second] = await allItems(SANDBOX_KEYS.items);
    const res = await get("/api/items/item", { api_key: SANDBOX_KEYS.items, item_id: String(second!.id) });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "success", item: second });
  });

  it("answers another seller's item or an unknown id 404 Item Not Found", async () => {
    const [theirs] = await allItems(SANDBOX_KEYS.items2);
    await expectError(
      get("/api/items/item", { api_key: SANDBOX_KEYS.items, item_id: String(theirs!.id) }),
      404,
      "Item Not Found",
    );
    await expectError(
      get("/api/items/item", { api_key: SANDBOX_KEYS.items, item_id: "999999999" }),
      404,
      "Item Not Found",
    );
    await expectError(
      get("/api/items/item", { api_key: SANDBOX_KEYS.itemsEmpty, item_id: "100001" }),
      404,
      "Item Not Found",
    );
  });

  it.each([[{}], [{ item_id: "" }], [{ item_id: "abc" }], [{ item_id: "-3" }]])(
    "answers %j 400 Invalid request",
    async (query) => {
      await expectError(get("/api/items/item", { api_key: SANDBOX_KEYS.items, ...query }), 400, "Invalid request");
    },
  );
});

describe("POST /api/purchases/validation", () => {
  async function purchase(code: string): Promise<Purchase> {
    const res = await validate(SANDBOX_KEYS.items, code);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { status: string; data: { purchase: Purchase } };
    expect(body.status).toBe("success");
    return body.data.purchase;
  }

  it("validates the fixed code with active support", async () => {
    const p = await purchase(FIXED_PURCHASE_CODES.active);
    expect(Object.keys(p)).toEqual([
      "purchase_code",
      "license_type",
      "price",
      "currency",
      "item",
      "supported_until",
      "downloaded",
      "date",
    ]);
    expect(p.purchase_code).toBe(FIXED_PURCHASE_CODES.active);
    expect(Date.parse(p.supported_until!)).toBeGreaterThan(Date.now());
    expect(Object.keys(p.item)).toEqual(["id", "name", "url", "media"]);
    expect(p.item.media.preview_image).toMatch(/^https:\/\//);
    const items = await allItems(SANDBOX_KEYS.items);
    expect(items.map((i) => i.id)).toContain(p.item.id);
  });

  it("validates the fixed code whose support expired", async () => {
    const p = await purchase(FIXED_PURCHASE_CODES.expired);
    expect(Date.parse(p.supported_until!)).toBeLessThan(Date.now());
    expect(Date.parse(p.supported_until!)).toBeGreaterThan(Date.parse(p.date));
  });

  it("omits supported_until for the fixed code without support", async () => {
    const p = await purchase(FIXED_PURCHASE_CODES.none);
    expect(p).not.toHaveProperty("supported_until");
    expect(p.license_type).toMatch(/^(Regular|Extended) License$/);
  });

  it("accepts only sales of the key's own items", async () => {
    await expectError(validate(SANDBOX_KEYS.items2, FIXED_PURCHASE_CODES.active), 404, "Invalid purchase code");
    await expectError(validate(SANDBOX_KEYS.itemsEmpty, FIXED_PURCHASE_CODES.active), 404, "Invalid purchase code");
  });

  it.each(["00000000-0000-4000-8000-000000000000", "not-a-code", ` ${FIXED_PURCHASE_CODES.active}`])(
    "answers %j 404 Invalid purchase code",
    async (code) => {
      await expectError(validate(SANDBOX_KEYS.items, code), 404, "Invalid purchase code");
    },
  );

  it("answers a missing purchase_code 400 Invalid request", async () => {
    await expectError(post("/api/purchases/validation", { api_key: SANDBOX_KEYS.items }), 400, "Invalid request");
    await expectError(validate(SANDBOX_KEYS.items, ""), 400, "Invalid request");
  });
});

describe("POST /__sandbox/purchases/{code}: a sale reversed, its support date moved", () => {
  afterEach(async () => {
    await sandbox.reset();
  });

  const VALIDATION = "/market/api/purchases/validation";
  const seeded = seedSellers();
  /** A sale of the second seller: reversals are not the main seller's alone. */
  const [secondCode] = [...seeded.second.purchases.keys()];
  const UNSOLD = "00000000-0000-4000-8000-000000000000";

  async function validated(key: string, code: string): Promise<Purchase> {
    const res = await validate(key, code);
    expect(res.status).toBe(200);
    return ((await res.json()) as { data: { purchase: Purchase } }).data.purchase;
  }

  function control(code: string, body: unknown): Promise<Response> {
    return fetch(`${sandbox.url}/__sandbox/purchases/${code}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: typeof body === "string" ? body : JSON.stringify(body),
    });
  }

  it("reversed, the code answers like one nobody sold; reinstated, it answers the same purchase again", async () => {
    const before = await validated(SANDBOX_KEYS.items, FIXED_PURCHASE_CODES.active);

    const reversed = await sandbox.setPurchase(FIXED_PURCHASE_CODES.active, { reversed: true });
    expect(reversed).toEqual({ purchase: before, reversed: true });
    await expectError(validate(SANDBOX_KEYS.items, FIXED_PURCHASE_CODES.active), 404, "Invalid purchase code");
    await expectError(validate(SANDBOX_KEYS.itemsNext, FIXED_PURCHASE_CODES.active), 404, "Invalid purchase code");
    // Reversing twice is still reversed; the other sales are untouched.
    expect((await sandbox.setPurchase(FIXED_PURCHASE_CODES.active, { reversed: true })).reversed).toBe(true);
    expect((await validated(SANDBOX_KEYS.items, FIXED_PURCHASE_CODES.expired)).purchase_code).toBe(
      FIXED_PURCHASE_CODES.expired,
    );

    expect(await sandbox.setPurchase(FIXED_PURCHASE_CODES.active, { reversed: false })).toEqual({
      purchase: before,
      reversed: false,
    });
    expect(await validated(SANDBOX_KEYS.items, FIXED_PURCHASE_CODES.active)).toEqual(before);
  });

  it("reverses a sale of whichever seller sold it", async () => {
    const before = await validated(SANDBOX_KEYS.items2, secondCode!);
    expect((await sandbox.setPurchase(secondCode!, { reversed: true })).purchase).toEqual(before);
    await expectError(validate(SANDBOX_KEYS.items2, secondCode!), 404, "Invalid purchase code");
    await sandbox.setPurchase(secondCode!, { reversed: false });
    expect(await validated(SANDBOX_KEYS.items2, secondCode!)).toEqual(before);
  });

  it("moves supported_until to the time given, in UTC whole seconds, in its place among the fields", async () => {
    const before = await validated(SANDBOX_KEYS.items, FIXED_PURCHASE_CODES.expired);
    const moved = await sandbox.setPurchase(FIXED_PURCHASE_CODES.expired, {
      supported_until: "2027-03-04T05:06:07Z",
    });
    expect(moved).toEqual({ purchase: { ...before, supported_until: "2027-03-04T05:06:07Z" }, reversed: false });
    expect(await validated(SANDBOX_KEYS.items, FIXED_PURCHASE_CODES.expired)).toEqual(moved.purchase);

    // An offset and fractions of a second are kept as the upstream keeps times.
    await sandbox.setPurchase(FIXED_PURCHASE_CODES.expired, { supported_until: "2027-03-04T07:06:07.9+02:00" });
    expect((await validated(SANDBOX_KEYS.items, FIXED_PURCHASE_CODES.expired)).supported_until).toBe(
      "2027-03-04T05:06:07Z",
    );

    // A sale bought without support gains one, the field where the upstream puts it (after item).
    const none = await validated(SANDBOX_KEYS.items, FIXED_PURCHASE_CODES.none);
    await sandbox.setPurchase(FIXED_PURCHASE_CODES.none, { supported_until: "2026-12-24T18:00:00Z" });
    const supported = await validated(SANDBOX_KEYS.items, FIXED_PURCHASE_CODES.none);
    expect(supported).toEqual({ ...none, supported_until: "2026-12-24T18:00:00Z" });
    expect(Object.keys(supported)).toEqual(
      Object.keys(await validated(SANDBOX_KEYS.items, FIXED_PURCHASE_CODES.active)),
    );
  });

  it("with supported_until null, the sale is as one bought without support: the field is omitted", async () => {
    const before = await validated(SANDBOX_KEYS.items, FIXED_PURCHASE_CODES.active);
    const { purchase } = await sandbox.setPurchase(FIXED_PURCHASE_CODES.active, { supported_until: null });
    expect(purchase).not.toHaveProperty("supported_until");
    const after = await validated(SANDBOX_KEYS.items, FIXED_PURCHASE_CODES.active);
    expect(after).not.toHaveProperty("supported_until");
    const { supported_until: _dropped, ...rest } = before;
    expect(after).toEqual(rest);
  });

  it("takes both changes at once, and keeps a reversed sale's new date for when it is reinstated", async () => {
    const answer = await sandbox.setPurchase(FIXED_PURCHASE_CODES.letters, {
      reversed: true,
      supported_until: "2028-01-31T00:00:00Z",
    });
    expect(answer.reversed).toBe(true);
    expect(answer.purchase.supported_until).toBe("2028-01-31T00:00:00Z");
    await expectError(validate(SANDBOX_KEYS.items, FIXED_PURCHASE_CODES.letters), 404, "Invalid purchase code");
    await sandbox.setPurchase(FIXED_PURCHASE_CODES.letters, { supported_until: "2029-01-31T00:00:00Z" });
    await expectError(validate(SANDBOX_KEYS.items, FIXED_PURCHASE_CODES.letters), 404, "Invalid purchase code");
    await sandbox.setPurchase(FIXED_PURCHASE_CODES.letters, { reversed: false });
    expect((await validated(SANDBOX_KEYS.items, FIXED_PURCHASE_CODES.letters)).supported_until).toBe(
      "2029-01-31T00:00:00Z",
    );
  });

  it("answers 404 with a sentence for a code no seller sold, without echoing the whole code", async () => {
    for (const code of [UNSOLD, FIXED_PURCHASE_CODES.letters.toUpperCase(), "%E0%A4%A"]) {
      const res = await control(code, { reversed: true });
      expect(res.status).toBe(404);
      const { error } = (await res.json()) as { error: string };
      expect(error).toMatch(/^No seller sold the purchase code ending in ".{1,4}"/);
      expect(error).not.toContain(code);
    }
    await expect(sandbox.setPurchase(UNSOLD, { supported_until: null })).rejects.toThrow(/: 404 /);
    await expectError(validate(SANDBOX_KEYS.items, UNSOLD), 404, "Invalid purchase code");
  });

  it.each([
    ["no change", {}],
    ["reversed not a boolean", { reversed: "yes" }],
    ["supported_until not a time", { supported_until: "next year" }],
    ["supported_until a date without its time", { supported_until: "2027-03-04" }],
    ["an unknown field", { reversed: true, refunded: true }],
  ])("answers 400 with the issues for %s, and changes nothing", async (_case, body) => {
    const before = await validated(SANDBOX_KEYS.items, FIXED_PURCHASE_CODES.active);
    const res = await control(FIXED_PURCHASE_CODES.active, body);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: "Invalid purchase change.", issues: expect.any(Object) });
    expect(await validated(SANDBOX_KEYS.items, FIXED_PURCHASE_CODES.active)).toEqual(before);
  });

  it("answers 400 for a body that is not JSON", async () => {
    const res = await control(FIXED_PURCHASE_CODES.active, "reversed=true");
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toMatch(/^The body must be JSON: \{"reversed"/);
  });

  it("is undone by POST /__sandbox/reset: reversals, moved and removed dates all back to the seed", async () => {
    await sandbox.setPurchase(FIXED_PURCHASE_CODES.active, { reversed: true });
    await sandbox.setPurchase(secondCode!, { reversed: true, supported_until: null });
    await sandbox.setPurchase(FIXED_PURCHASE_CODES.expired, { supported_until: "2030-01-01T00:00:00Z" });
    await sandbox.setPurchase(FIXED_PURCHASE_CODES.none, { supported_until: "2030-01-01T00:00:00Z" });
    await sandbox.reset();
    for (const [key, code, seller] of [
      [SANDBOX_KEYS.items, FIXED_PURCHASE_CODES.active, seeded.main],
      [SANDBOX_KEYS.items2, secondCode!, seeded.second],
      [SANDBOX_KEYS.items, FIXED_PURCHASE_CODES.expired, seeded.main],
      [SANDBOX_KEYS.items, FIXED_PURCHASE_CODES.none, seeded.main],
    ] as const) {
      expect(await validated(key, code)).toEqual(seller.purchases.get(code));
    }
    expect(await validated(SANDBOX_KEYS.items, FIXED_PURCHASE_CODES.none)).not.toHaveProperty("supported_until");
  });

  it("leaves the request log to the validations, a reversed code's too, and not the control calls", async () => {
    await sandbox.clearRequests();
    await sandbox.setPurchase(FIXED_PURCHASE_CODES.expired, { reversed: true });
    await expectError(validate(SANDBOX_KEYS.items, FIXED_PURCHASE_CODES.expired), 404, "Invalid purchase code");
    await sandbox.setPurchase(FIXED_PURCHASE_CODES.expired, { reversed: false });
    await validated(SANDBOX_KEYS.items, FIXED_PURCHASE_CODES.expired);
    const log = await sandbox.requests();
    expect(log.map((entry) => [entry.method, entry.path, entry.form?.purchase_code, entry.key])).toEqual([
      ["POST", VALIDATION, FIXED_PURCHASE_CODES.expired, SANDBOX_KEYS.items],
      ["POST", VALIDATION, FIXED_PURCHASE_CODES.expired, SANDBOX_KEYS.items],
    ]);
  });
});
