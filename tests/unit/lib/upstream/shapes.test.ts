// Every upstream shape Gatehouse accepts (lib/upstream/shapes.ts), parsed from JSON as a PHP/Laravel API
// plausibly sends it, and normalised to the contract objects.
import { describe, expect, it } from "vitest";

import { AccountSchema, ItemSchema } from "@/lib/contract/items";
import { PurchaseSchema } from "@/lib/contract/purchases";
import { ReportSchema } from "@/lib/contract/reports";
import {
  AccountEnvelopeSchema,
  ItemEnvelopeSchema,
  ItemListEnvelopeSchema,
  ItemsErrorEnvelopeSchema,
  normaliseTimestamp,
  parseList,
  parseSingle,
  parseValidationErrors,
  parseWith,
  PurchaseEnvelopeSchema,
  UpstreamProjectSchema,
  UpstreamReportSchema,
} from "@/lib/upstream/shapes";

const report = {
  id: 7,
  url: "https://shop.example.com/",
  project: "shop.example.com",
  result: "good",
  generated_at: "2025-03-01T10:00:00.000000Z",
  privacy: 2,
  password: "must-never-pass",
  created_at: "2025-03-01T09:59:00.000000Z",
};
const expectedReport = {
  id: 7,
  url: "https://shop.example.com/",
  project: "shop.example.com",
  result: "good",
  generated_at: "2025-03-01T10:00:00.000Z",
  privacy: 2,
};

describe("area A list shapes", () => {
  it('accepts "resource page": Laravel resource pagination {data, links, meta}', () => {
    const parsed = parseList(
      {
        data: [report],
        links: { first: "x", last: "y", prev: null, next: null },
        meta: { current_page: 2, from: 11, last_page: 3, path: "p", per_page: 10, to: 20, total: 25 },
      },
      UpstreamReportSchema,
      undefined,
    );
    expect(parsed).toEqual({
      ok: true,
      shape: "resource page",
      value: { data: [expectedReport], meta: { page: 2, per_page: 10, total: 25, last_page: 3 } },
    });
  });

  it('accepts "plain paginator": {current_page, data, last_page, per_page, total, ...}, with numeric strings', () => {
    const parsed = parseList(
      {
        current_page: 1,
        data: [report],
        first_page_url: "u",
        from: 1,
        last_page: 1,
        per_page: "25",
        to: 1,
        total: "1",
      },
      UpstreamReportSchema,
      25,
    );
    expect(parsed).toEqual({
      ok: true,
      shape: "plain paginator",
      value: { data: [expectedReport], meta: { page: 1, per_page: 25, total: 1, last_page: 1 } },
    });
  });

  it('accepts "collection" {data:[...]} and "bare array" [...] as one page holding everything', () => {
    expect(parseList({ data: [report, { ...report, id: 8 }] }, UpstreamReportSchema, 10)).toMatchObject({
      ok: true,
      shape: "collection",
      value: { meta: { page: 1, per_page: 10, total: 2, last_page: 1 } },
    });
    expect(parseList([report], UpstreamReportSchema, undefined)).toMatchObject({
      ok: true,
      shape: "bare array",
      value: { data: [expectedReport], meta: { page: 1, per_page: 1, total: 1, last_page: 1 } },
    });
  });

  it("reports an empty list with last_page 1 even when the upstream says 0", () => {
    const parsed = parseList(
      { data: [], meta: { current_page: 1, last_page: 0, per_page: 10, total: 0 } },
      UpstreamReportSchema,
      10,
    );
    expect(parsed).toMatchObject({ ok: true, value: { data: [], meta: { total: 0, last_page: 1 } } });
  });

  it("refuses anything else, describing the problem by path and never by value", () => {
    const bad = parseList(
      {
        data: [{ ...report, result: "superb-secret" }],
        meta: { current_page: 1, last_page: 1, per_page: 10, total: 1 },
      },
      UpstreamReportSchema,
      10,
    );
    expect(bad.ok).toBe(false);
    if (!bad.ok) {
      expect(bad.problem).toContain("data.0.result");
      expect(bad.problem).not.toContain("superb-secret");
    }
    expect(parseList({ items: [] }, UpstreamReportSchema, 10)).toEqual({
      ok: false,
      problem: "not a list in any accepted shape",
    });
    expect(parseList("<html>", UpstreamReportSchema, 10).ok).toBe(false);
  });
});

describe("area A single shapes and values", () => {
  it('accepts "resource" {data: report} and "bare object" report', () => {
    expect(parseSingle({ data: report }, UpstreamReportSchema)).toEqual({
      ok: true,
      shape: "resource",
      value: expectedReport,
    });
    expect(parseSingle(report, UpstreamReportSchema)).toEqual({
      ok: true,
      shape: "bare object",
      value: expectedReport,
    });
  });

  it("never passes a password through, and the result matches the contract", () => {
    const parsed = parseSingle({ data: report }, UpstreamReportSchema);
    expect(parsed.ok && "password" in parsed.value).toBe(false);
    expect(parsed.ok && ReportSchema.parse(parsed.value)).toEqual(expectedReport);
  });

  it("coerces PHP-style values: numeric strings, capitalised results, a null project, a missing generated_at", () => {
    const parsed = parseSingle(
      { id: "12", url: "https://a.example/", project: null, result: "Decent", privacy: "1", generated_at: null },
      UpstreamReportSchema,
    );
    expect(parsed).toEqual({
      ok: true,
      shape: "bare object",
      value: { id: 12, url: "https://a.example/", project: null, result: "decent", generated_at: null, privacy: 1 },
    });
  });

  it("refuses privacy and ids outside the document's values", () => {
    expect(parseSingle({ ...report, privacy: 3 }, UpstreamReportSchema).ok).toBe(false);
    expect(parseSingle({ ...report, id: 0 }, UpstreamReportSchema).ok).toBe(false);
    expect(parseSingle({ ...report, id: "7a" }, UpstreamReportSchema).ok).toBe(false);
  });

  it("parses projects", () => {
    expect(
      parseList({ data: [{ project: "my shop", created_at: "2025-01-02 03:04:05" }] }, UpstreamProjectSchema, 10),
    ).toMatchObject({
      ok: true,
      value: { data: [{ project: "my shop", created_at: "2025-01-02T03:04:05.000Z" }] },
    });
  });

  it("turns Laravel's 422 body into one message per field", () => {
    expect(
      parseValidationErrors({
        message: "The url field is required. (and 1 more error)",
        errors: { url: ["The url field is required."], privacy: ["The selected privacy is invalid.", "Second."] },
      }),
    ).toEqual({
      message: "The url field is required. (and 1 more error)",
      fields: { url: "The url field is required.", privacy: "The selected privacy is invalid. Second." },
    });
    expect(parseValidationErrors("nonsense")).toEqual({ fields: {} });
  });
});

describe("timestamps", () => {
  it.each([
    ["2025-03-01T10:00:00Z", "2025-03-01T10:00:00.000Z"],
    ["2025-03-01T10:00:00.123456Z", "2025-03-01T10:00:00.123Z"],
    ["2025-03-01T12:00:00+02:00", "2025-03-01T10:00:00.000Z"],
    ["2025-03-01 10:00:00", "2025-03-01T10:00:00.000Z"],
    ["2025-03-01", "2025-03-01T00:00:00.000Z"],
    [1740823200, "2025-03-01T10:00:00.000Z"],
  ] as const)("normalises %s to ISO 8601 UTC", (input, expected) => {
    expect(normaliseTimestamp(input)).toBe(expected);
  });

  it("refuses what is not a timestamp", () => {
    expect(normaliseTimestamp("yesterday")).toBeNull();
    expect(normaliseTimestamp("2025-13-45 99:00:00")).toBeNull();
  });
});

const item = {
  id: 101,
  name: "Invoice Builder",
  description: "PHP invoices",
  category: "Scripts",
  sub_category: "PHP",
  options: ["Source code"],
  version: "2.1.0",
  demo_link: "https://demo.example.com/invoice",
  tags: ["invoice", "php"],
  media: {
    thumbnail: "https://cdn.example.com/t.png",
    preview_image: "https://cdn.example.com/p.png",
    screenshots: ["https://cdn.example.com/s1.png"],
  },
  price: { regular: 29, extended: "149.50" },
  currency: "USD",
  published_at: "2024-06-01T08:00:00Z",
};

describe("area B envelopes", () => {
  it("parses account details {status:success, data}, with a PHP empty array for social_links", () => {
    const account = {
      name: { firstname: "Ada", lastname: "Lovelace", full_name: "Ada Lovelace" },
      username: "ada",
      email: "ada@example.com",
      balance: "1250.75",
      currency: "USD",
      profile: {
        heading: "Scripts",
        description: "I write scripts",
        contact: { email: "contact@example.com" },
        social_links: [],
        media: { avatar: "https://cdn.example.com/a.png", cover: "https://cdn.example.com/c.png" },
      },
      registered_at: "2020-01-01T00:00:00Z",
    };
    const parsed = parseWith(AccountEnvelopeSchema, { status: "success", data: account }, "account");
    expect(parsed.ok).toBe(true);
    if (parsed.ok) {
      expect(parsed.value.data.balance).toBe(1250.75);
      expect(parsed.value.data.profile.social_links).toEqual({});
      expect(AccountSchema.parse(parsed.value.data)).toEqual(parsed.value.data);
    }
  });

  it("parses items/all {status:success, items} and items/item {status:success, item}", () => {
    const audio = {
      ...item,
      id: 102,
      media: { thumbnail: "t", preview_audio: "https://cdn.example.com/a.mp3", screenshots: [] },
    };
    const list = parseWith(ItemListEnvelopeSchema, { status: "success", items: [item, audio] }, "items");
    expect(list.ok && list.value.items.map((i) => ItemSchema.parse(i).id)).toEqual([101, 102]);
    expect(list.ok && list.value.items[0]?.price).toEqual({ regular: 29, extended: 149.5 });
    // Omitted in the upstream stays omitted.
    expect(list.ok && Object.keys(list.value.items[1]?.media ?? {})).toEqual([
      "thumbnail",
      "preview_audio",
      "screenshots",
    ]);
    const single = parseWith(
      ItemEnvelopeSchema,
      { status: "success", item: { ...item, tags: "a, b", options: null } },
      "item",
    );
    expect(single.ok && single.value.item.tags).toEqual(["a", "b"]);
    expect(single.ok && single.value.item.options).toEqual([]);
  });

  it("parses purchase validation {status:success, data:{purchase}}; supported_until may be omitted", () => {
    const purchase = {
      purchase_code: "11111111-1111-4111-8111-111111111111",
      license_type: "Regular",
      price: "29.00",
      currency: "USD",
      item: {
        id: "101",
        name: "Invoice Builder",
        url: "https://market.example.com/item/101",
        media: { preview_image: "https://cdn.example.com/p.png" },
      },
      supported_until: "2026-01-01T00:00:00Z",
      downloaded: 1,
      date: "2025-01-01 12:00:00",
    };
    const parsed = parseWith(PurchaseEnvelopeSchema, { status: "success", data: { purchase } }, "purchase");
    expect(parsed.ok && parsed.value.data.purchase).toEqual({
      ...purchase,
      price: 29,
      item: { ...purchase.item, id: 101 },
      supported_until: "2026-01-01T00:00:00.000Z",
      downloaded: true,
      date: "2025-01-01T12:00:00.000Z",
    });
    const { supported_until: _omitted, ...unsupported } = purchase;
    const noSupport = parseWith(
      PurchaseEnvelopeSchema,
      { status: "success", data: { purchase: { ...unsupported, downloaded: "false" } } },
      "purchase",
    );
    expect(noSupport.ok && "supported_until" in noSupport.value.data.purchase).toBe(false);
    expect(noSupport.ok && PurchaseSchema.parse(noSupport.value.data.purchase).downloaded).toBe(false);
  });

  it("recognises the error envelope {status:error, msg}", () => {
    expect(ItemsErrorEnvelopeSchema.safeParse({ status: "error", msg: "No Items Found" }).success).toBe(true);
    expect(ItemsErrorEnvelopeSchema.safeParse({ status: "success", items: [] }).success).toBe(false);
  });
});
