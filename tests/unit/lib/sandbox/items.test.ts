// Area B (item API under /market) over real HTTP: every operation, its errors, keys, sellers and media rules.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { FIXED_PURCHASE_CODES, SANDBOX_KEYS } from "@/lib/sandbox";
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
