// Area A (reports API under /seo) over real HTTP: every operation, its 422s and 404s, keys and the prefix.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

import { SANDBOX_KEYS } from "@/lib/sandbox";
import { startTestSandbox, type TestSandbox } from "@/tests/support/sandbox";

let sandbox: TestSandbox;
const CANARY_KEY = "canary-reports-key";

beforeAll(async () => {
  sandbox = await startTestSandbox({ extraKeys: { reports: [CANARY_KEY] } });
});
afterAll(async () => {
  await sandbox.close();
});
beforeEach(async () => {
  await sandbox.reset();
});

interface Report {
  id: number;
  url: string;
  project: string;
  result: string;
  generated_at: string;
  privacy: number;
  created_at: string;
  updated_at: string;
}
interface Page<T> {
  data: T[];
  links: { first: string; last: string; prev: string | null; next: string | null };
  meta: {
    current_page: number;
    from: number | null;
    last_page: number;
    path: string;
    per_page: number;
    to: number | null;
    total: number;
  };
}
interface ValidationError {
  message: string;
  errors: Record<string, string[]>;
}

function call(
  path: string,
  init: RequestInit & { key?: string | null; form?: Record<string, string> } = {},
): Promise<Response> {
  const { key = SANDBOX_KEYS.reports, form, ...rest } = init;
  const headers = new Headers(rest.headers);
  headers.set("accept", "application/json");
  if (key !== null) headers.set("authorization", `Bearer ${key}`);
  return fetch(`${sandbox.reportsBaseUrl}${path}`, {
    ...rest,
    headers,
    body: form ? new URLSearchParams(form) : rest.body,
  });
}

async function getJson<T>(path: string, expectedStatus = 200): Promise<T> {
  const res = await call(path);
  expect(res.status).toBe(expectedStatus);
  return (await res.json()) as T;
}

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

describe("authentication", () => {
  const operations: [string, string][] = [
    ["GET", "/api/v1/reports"],
    ["POST", "/api/v1/reports"],
    ["GET", "/api/v1/reports/1"],
    ["PUT", "/api/v1/reports/1"],
    ["PATCH", "/api/v1/reports/1"],
    ["DELETE", "/api/v1/reports/1"],
    ["GET", "/api/v1/projects"],
    ["DELETE", "/api/v1/projects/my%20shop"],
  ];

  it.each(operations)("%s %s without a key is 401 Unauthenticated and changes nothing", async (method, path) => {
    const res = await call(path, { method, key: null });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ message: "Unauthenticated." });
    await getJson("/api/v1/reports/1");
    expect((await getJson<Page<unknown>>("/api/v1/reports")).meta.total).toBe(160);
    expect((await getJson<Page<unknown>>("/api/v1/projects")).meta.total).toBe(13);
  });

  it.each(operations)("%s %s with a wrong key is 401", async (method, path) => {
    const res = await call(path, { method, key: "not-a-key" });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ message: "Unauthenticated." });
  });

  it("accepts only the Bearer scheme, in any letter case, and extra keys given at start", async () => {
    const basic = await call("/api/v1/reports", {
      key: null,
      headers: { authorization: `Basic ${SANDBOX_KEYS.reports}` },
    });
    expect(basic.status).toBe(401);
    const bare = await call("/api/v1/reports", { key: null, headers: { authorization: SANDBOX_KEYS.reports } });
    expect(bare.status).toBe(401);
    const lower = await call("/api/v1/reports", {
      key: null,
      headers: { authorization: `bearer ${SANDBOX_KEYS.reports}` },
    });
    expect(lower.status).toBe(200);
    expect((await call("/api/v1/reports", { key: CANARY_KEY })).status).toBe(200);
  });

  it("does not take the item API's keys", async () => {
    expect((await call("/api/v1/reports", { key: SANDBOX_KEYS.items })).status).toBe(401);
  });
});

describe("path prefix and routing", () => {
  it("serves the documented paths only under /seo", async () => {
    const bare = await fetch(`${sandbox.url}/api/v1/reports`, {
      headers: { authorization: `Bearer ${SANDBOX_KEYS.reports}` },
    });
    expect(bare.status).toBe(404);
    expect(sandbox.reportsBaseUrl).toBe(`${sandbox.url}/seo`);
    expect((await call("/api/v1/reports")).status).toBe(200);
  });

  it("answers an unknown path under /seo with a JSON 404 in Laravel's style", async () => {
    const res = await call("/api/v1/nothing-here");
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(await res.json()).toEqual({ message: "The route api/v1/nothing-here could not be found." });
  });

  it("answers a wrong method with 405 and the allowed methods", async () => {
    const res = await call("/api/v1/projects", { method: "POST", form: { project: "x" } });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET, HEAD");
    expect(((await res.json()) as { message: string }).message).toBe(
      "The POST method is not supported for route api/v1/projects. Supported methods: GET, HEAD.",
    );
  });
});

describe("GET /api/v1/reports", () => {
  it("pages the newest reports first with Laravel's envelope, links keeping the /seo prefix", async () => {
    const page = await getJson<Page<Report>>("/api/v1/reports");
    const path = `${sandbox.reportsBaseUrl}/api/v1/reports`;
    expect(page.meta).toEqual({ current_page: 1, from: 1, last_page: 16, path, per_page: 10, to: 10, total: 160 });
    expect(page.links).toEqual({
      first: `${path}?page=1`,
      last: `${path}?page=16`,
      prev: null,
      next: `${path}?page=2`,
    });
    expect(page.data.map((r) => r.id)).toEqual([160, 159, 158, 157, 156, 155, 154, 153, 152, 151]);
  });

  it("shows each report with exactly the documented fields, UTC timestamps and no password", async () => {
    const page = await getJson<Page<Report>>("/api/v1/reports?per_page=100&page=1");
    for (const report of page.data) {
      expect(Object.keys(report)).toEqual([
        "id",
        "url",
        "project",
        "result",
        "generated_at",
        "privacy",
        "created_at",
        "updated_at",
      ]);
      expect(report.generated_at).toMatch(ISO_UTC);
      expect(report.created_at).toMatch(ISO_UTC);
      expect(report.updated_at).toMatch(ISO_UTC);
      expect(["good", "decent", "bad"]).toContain(report.result);
      expect([0, 1, 2]).toContain(report.privacy);
    }
    expect(JSON.stringify(page)).not.toContain("password");
  });

  it("keeps the other query parameters in the links and pages through to an empty page", async () => {
    const page = await getJson<Page<Report>>("/api/v1/reports?per_page=25&page=2&sort=asc");
    const path = `${sandbox.reportsBaseUrl}/api/v1/reports`;
    expect(page.meta).toMatchObject({ current_page: 2, from: 26, to: 50, last_page: 7, per_page: 25 });
    expect(page.links.prev).toBe(`${path}?per_page=25&sort=asc&page=1`);
    expect(page.links.next).toBe(`${path}?per_page=25&sort=asc&page=3`);
    expect(page.data[0]?.id).toBe(26);

    const last = await getJson<Page<Report>>("/api/v1/reports?per_page=50&page=4");
    expect(last.meta).toMatchObject({ current_page: 4, from: 151, to: 160, last_page: 4 });
    expect(last.links.next).toBeNull();

    const beyond = await getJson<Page<Report>>("/api/v1/reports?page=99");
    expect(beyond.data).toEqual([]);
    expect(beyond.meta).toMatchObject({ current_page: 99, from: null, to: null, total: 160 });
  });

  it.each(["10", "25", "50", "100"])("accepts per_page=%s", async (perPage) => {
    const page = await getJson<Page<Report>>(`/api/v1/reports?per_page=${perPage}`);
    expect(page.data).toHaveLength(Number(perPage));
    expect(page.meta.per_page).toBe(Number(perPage));
  });

  it("searches the URL as a case-insensitive substring (search_by=url)", async () => {
    const page = await getJson<Page<Report>>("/api/v1/reports?search=NorthWind&search_by=url&per_page=100");
    expect(page.meta.total).toBeGreaterThan(0);
    expect(page.data.every((r) => r.url.toLowerCase().includes("northwind"))).toBe(true);
    const all = await getJson<Page<Report>>("/api/v1/reports?per_page=100&page=1");
    const all2 = await getJson<Page<Report>>("/api/v1/reports?per_page=100&page=2");
    const expected = [...all.data, ...all2.data].filter((r) => r.url.toLowerCase().includes("northwind")).length;
    expect(page.meta.total).toBe(expected);
  });

  it("filters by project (names with spaces too) and by result, together", async () => {
    const shop = await getJson<Page<Report>>(`/api/v1/reports?project=${encodeURIComponent("my shop")}&per_page=100`);
    expect(shop.meta.total).toBeGreaterThan(0);
    expect(shop.data.every((r) => r.project === "my shop")).toBe(true);

    for (const result of ["good", "decent", "bad"]) {
      const page = await getJson<Page<Report>>(`/api/v1/reports?result=${result}&per_page=100`);
      expect(page.meta.total).toBeGreaterThan(0);
      expect(page.data.every((r) => r.result === result)).toBe(true);
    }
    const both = await getJson<Page<Report>>(
      `/api/v1/reports?project=${encodeURIComponent("café-münchen.de")}&result=good&per_page=100`,
    );
    expect(both.data.every((r) => r.project === "café-münchen.de" && r.result === "good")).toBe(true);

    const none = await getJson<Page<Report>>("/api/v1/reports?project=no-such-project");
    expect(none.meta).toMatchObject({ total: 0, from: null, to: null, last_page: 1 });
  });

  it.each<[string, (r: Report) => number | string]>([
    ["id", (r) => r.id],
    ["generated_at", (r) => r.generated_at],
    ["url", (r) => r.url.toLowerCase()],
    ["result", (r) => r.result],
  ])("sorts by %s in both directions", async (sortBy, key) => {
    for (const sort of ["asc", "desc"] as const) {
      const page = await getJson<Page<Report>>(`/api/v1/reports?sort_by=${sortBy}&sort=${sort}&per_page=100`);
      const keys = page.data.map(key);
      const sorted = [...keys].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      expect(keys).toEqual(sort === "asc" ? sorted : sorted.reverse());
    }
  });

  it.each([
    ["per_page=7", "per_page", "The selected per page is invalid."],
    ["per_page=abc", "per_page", "The selected per page is invalid."],
    ["sort_by=foo", "sort_by", "The selected sort by is invalid."],
    ["sort_by=created_at", "sort_by", "The selected sort by is invalid."],
    ["sort=sideways", "sort", "The selected sort is invalid."],
    ["result=great", "result", "The selected result is invalid."],
    ["search_by=project", "search_by", "The selected search by is invalid."],
    ["page=0", "page", "The page field must be at least 1."],
    ["page=two", "page", "The page field must be an integer."],
    [`search=${"x".repeat(2049)}`, "search", "The search field must not be greater than 2048 characters."],
  ])("rejects %s with a 422 naming the field", async (query, field, message) => {
    const body = await getJson<ValidationError>(`/api/v1/reports?${query}`, 422);
    expect(body).toEqual({ message, errors: { [field]: [message] } });
  });

  it("reports every invalid field at once, as Laravel does", async () => {
    const body = await getJson<ValidationError>("/api/v1/reports?per_page=7&sort_by=foo&result=great", 422);
    expect(Object.keys(body.errors).sort()).toEqual(["per_page", "result", "sort_by"]);
    expect(body.message).toMatch(/^The selected .+ is invalid\. \(and 2 more errors\)$/);
  });

  it("treats empty parameters as absent", async () => {
    const page = await getJson<Page<Report>>("/api/v1/reports?per_page=&sort_by=&search=");
    expect(page.meta).toMatchObject({ per_page: 10, total: 160 });
  });
});

describe("GET /api/v1/reports/{id}", () => {
  it("shows one report", async () => {
    const body = await getJson<{ data: Report }>("/api/v1/reports/42");
    expect(body.data.id).toBe(42);
    expect(Object.keys(body.data)).toEqual([
      "id",
      "url",
      "project",
      "result",
      "generated_at",
      "privacy",
      "created_at",
      "updated_at",
    ]);
  });

  it.each(["9999", "abc", "0"])("answers 404 Not found. for id %s", async (id) => {
    expect(await getJson(`/api/v1/reports/${id}`, 404)).toEqual({ message: "Not found." });
  });
});

describe("POST /api/v1/reports", () => {
  it("creates a report with the next id, its host as project, and a result derived from the URL", async () => {
    const before = Date.now() - 1000;
    const res = await call("/api/v1/reports", {
      method: "POST",
      form: { url: "https://www.new-site.example/pricing?plan=pro" },
    });
    expect(res.status).toBe(201);
    const { data } = (await res.json()) as { data: Report };
    expect(data).toMatchObject({
      id: 161,
      url: "https://www.new-site.example/pricing?plan=pro",
      project: "www.new-site.example",
      privacy: 0,
    });
    expect(["good", "decent", "bad"]).toContain(data.result);
    expect(Date.parse(data.generated_at)).toBeGreaterThanOrEqual(before);
    expect(data.created_at).toBe(data.generated_at);

    // The project is created once, and the report is listed first (newest).
    const projects = await getJson<Page<{ project: string; created_at: string }>>("/api/v1/projects");
    expect(projects.data[0]).toEqual({ project: "www.new-site.example", created_at: data.created_at });
    expect(projects.meta.total).toBe(14);
    expect((await getJson<Page<Report>>("/api/v1/reports")).data[0]).toEqual(data);

    const again = await call("/api/v1/reports", {
      method: "POST",
      form: { url: "https://www.new-site.example/pricing?plan=pro" },
    });
    const second = ((await again.json()) as { data: Report }).data;
    expect(second.id).toBe(162);
    expect(second.result).toBe(data.result); // same URL, same result
    expect((await getJson<Page<unknown>>("/api/v1/projects")).meta.total).toBe(14);
  });

  it("groups an IDN host's report under the existing Unicode project", async () => {
    const res = await call("/api/v1/reports", { method: "POST", form: { url: "https://café-münchen.de/neu" } });
    expect(res.status).toBe(201);
    expect(((await res.json()) as { data: Report }).data.project).toBe("café-münchen.de");
    expect((await getJson<Page<unknown>>("/api/v1/projects")).meta.total).toBe(13);
  });

  it("stores a password-protected report without ever returning the password", async () => {
    const res = await call("/api/v1/reports", {
      method: "POST",
      form: { url: "http://plain.example/", privacy: "2", password: "s3cret pass" },
    });
    expect(res.status).toBe(201);
    const text = await res.text();
    expect(JSON.parse(text)).toMatchObject({ data: { privacy: 2, project: "plain.example" } });
    expect(text).not.toContain("s3cret");
    expect(text).not.toContain("password");
  });

  it.each([
    [{}, "url", "The url field is required."],
    [{ url: "" }, "url", "The url field is required."],
    [{ url: "   " }, "url", "The url field is required."],
    [{ url: "not a url" }, "url", "The url field must be a valid URL."],
    [{ url: "ftp://files.example/report" }, "url", "The url field must be a valid URL."],
    [{ url: "javascript:alert(1)" }, "url", "The url field must be a valid URL."],
    [
      { url: `https://long.example/${"a".repeat(2030)}` },
      "url",
      "The url field must not be greater than 2048 characters.",
    ],
    [{ url: "https://ok.example/", privacy: "3" }, "privacy", "The selected privacy is invalid."],
    [{ url: "https://ok.example/", privacy: "public" }, "privacy", "The selected privacy is invalid."],
    [{ url: "https://ok.example/", privacy: "2" }, "password", "The password field is required when privacy is 2."],
    [
      { url: "https://ok.example/", privacy: "2", password: "x".repeat(256) },
      "password",
      "The password field must not be greater than 255 characters.",
    ],
  ])("rejects %j with a 422 and creates nothing", async (form, field, message) => {
    const res = await call("/api/v1/reports", { method: "POST", form: form as Record<string, string> });
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({ message, errors: { [field]: [message] } });
    expect((await getJson<Page<Report>>("/api/v1/reports")).meta.total).toBe(160);
  });

  it("accepts a URL of exactly 2048 characters", async () => {
    const url = `https://long.example/${"a".repeat(2048 - "https://long.example/".length)}`;
    expect(url).toHaveLength(2048);
    expect((await call("/api/v1/reports", { method: "POST", form: { url } })).status).toBe(201);
  });

  it("reads form fields only: a JSON body is a 422 for the missing url", async () => {
    const res = await call("/api/v1/reports", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ url: "https://a.example/" }),
    });
    expect(res.status).toBe(422);
    expect(((await res.json()) as ValidationError).errors).toEqual({ url: ["The url field is required."] });
  });
});

describe("PUT and PATCH /api/v1/reports/{id}", () => {
  it.each(["PUT", "PATCH"])("%s changes privacy and stamps updated_at", async (method) => {
    const before = (await getJson<{ data: Report }>("/api/v1/reports/5")).data;
    const res = await call("/api/v1/reports/5", { method, form: { privacy: before.privacy === 1 ? "0" : "1" } });
    expect(res.status).toBe(200);
    const { data } = (await res.json()) as { data: Report };
    expect(data.privacy).toBe(before.privacy === 1 ? 0 : 1);
    expect(data.generated_at).toBe(before.generated_at);
    expect(Date.parse(data.updated_at)).toBeGreaterThan(Date.parse(before.updated_at));
    expect((await getJson<{ data: Report }>("/api/v1/reports/5")).data).toEqual(data);
  });

  it("needs a password to switch to privacy 2, unless the report already has one", async () => {
    const publicReport = (await getJson<Page<Report>>("/api/v1/reports?per_page=100")).data.find(
      (r) => r.privacy === 0,
    )!;
    const missing = await call(`/api/v1/reports/${publicReport.id}`, { method: "PATCH", form: { privacy: "2" } });
    expect(missing.status).toBe(422);
    expect(await missing.json()).toEqual({
      message: "The password field is required when privacy is 2.",
      errors: { password: ["The password field is required when privacy is 2."] },
    });
    const set = await call(`/api/v1/reports/${publicReport.id}`, {
      method: "PATCH",
      form: { privacy: "2", password: "letmein" },
    });
    expect(set.status).toBe(200);
    const again = await call(`/api/v1/reports/${publicReport.id}`, { method: "PUT", form: { privacy: "2" } });
    expect(again.status).toBe(200);
    expect(await again.text()).not.toContain("letmein");
  });

  it("results=1 regenerates the result and generated_at; results=0 leaves them", async () => {
    const before = (await getJson<{ data: Report }>("/api/v1/reports/7")).data;
    const keep = await call("/api/v1/reports/7", { method: "PUT", form: { results: "0" } });
    expect(((await keep.json()) as { data: Report }).data).toEqual(before);

    const started = Date.now() - 1000;
    const res = await call("/api/v1/reports/7", { method: "PUT", form: { results: "1" } });
    expect(res.status).toBe(200);
    const { data } = (await res.json()) as { data: Report };
    expect(Date.parse(data.generated_at)).toBeGreaterThanOrEqual(started);
    expect(data.updated_at).toBe(data.generated_at);
    expect(["good", "decent", "bad"]).toContain(data.result);
    expect({ ...data, result: null, generated_at: null, updated_at: null }).toEqual({
      ...before,
      result: null,
      generated_at: null,
      updated_at: null,
    });
  });

  it("with no fields answers the report unchanged", async () => {
    const before = (await getJson<{ data: Report }>("/api/v1/reports/8")).data;
    const res = await call("/api/v1/reports/8", { method: "PATCH" });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: Report }).data).toEqual(before);
  });

  it.each([
    [{ privacy: "9" }, "privacy", "The selected privacy is invalid."],
    [{ results: "2" }, "results", "The selected results is invalid."],
    [{ results: "yes" }, "results", "The selected results is invalid."],
  ])("rejects %j with a 422", async (form, field, message) => {
    const res = await call("/api/v1/reports/9", { method: "PUT", form });
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({ message, errors: { [field]: [message] } });
  });

  it("answers 404 for an unknown id before validating", async () => {
    const res = await call("/api/v1/reports/9999", { method: "PUT", form: { privacy: "9" } });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ message: "Not found." });
  });
});

describe("DELETE /api/v1/reports/{id}", () => {
  it("deletes with 204 and no body; the id is then unknown", async () => {
    const res = await call("/api/v1/reports/12", { method: "DELETE" });
    expect(res.status).toBe(204);
    expect(await res.text()).toBe("");
    await getJson("/api/v1/reports/12", 404);
    expect((await getJson<Page<Report>>("/api/v1/reports")).meta.total).toBe(159);
    const again = await call("/api/v1/reports/12", { method: "DELETE" });
    expect(again.status).toBe(404);
    expect(await again.json()).toEqual({ message: "Not found." });
  });

  it("never reuses a deleted id", async () => {
    await call("/api/v1/reports/160", { method: "DELETE" });
    const res = await call("/api/v1/reports", { method: "POST", form: { url: "https://next.example/" } });
    expect(((await res.json()) as { data: Report }).data.id).toBe(161);
  });
});

describe("GET /api/v1/projects", () => {
  type Project = { project: string; created_at: string };

  it("pages projects, newest first, with the same envelope", async () => {
    const page = await getJson<Page<Project>>("/api/v1/projects");
    const path = `${sandbox.reportsBaseUrl}/api/v1/projects`;
    expect(page.meta).toEqual({ current_page: 1, from: 1, last_page: 2, path, per_page: 10, to: 10, total: 13 });
    expect(page.links).toEqual({ first: `${path}?page=1`, last: `${path}?page=2`, prev: null, next: `${path}?page=2` });
    const dates = page.data.map((p) => p.created_at);
    expect(dates).toEqual([...dates].sort().reverse());
    for (const project of page.data) {
      expect(Object.keys(project)).toEqual(["project", "created_at"]);
      expect(project.created_at).toMatch(ISO_UTC);
    }
  });

  it("has a project with a space and one with non-ASCII letters", async () => {
    const names = (await getJson<Page<Project>>("/api/v1/projects?per_page=100")).data.map((p) => p.project);
    expect(names).toContain("my shop");
    expect(names).toContain("café-münchen.de");
  });

  it("searches names case-insensitively and sorts by name", async () => {
    const page = await getJson<Page<Project>>(
      "/api/v1/projects?search=SHOP&search_by=project&sort_by=project&sort=asc",
    );
    expect(page.data.map((p) => p.project)).toEqual(["my shop", "shop.lumen-lighting.co.uk"]);
    const desc = await getJson<Page<Project>>("/api/v1/projects?sort_by=project&sort=desc&per_page=25");
    const names = desc.data.map((p) => p.project.toLowerCase());
    expect(names).toEqual([...names].sort().reverse());
  });

  it.each([
    ["sort_by=id", "sort_by", "The selected sort by is invalid."],
    ["search_by=url", "search_by", "The selected search by is invalid."],
    ["per_page=5", "per_page", "The selected per page is invalid."],
    ["sort=up", "sort", "The selected sort is invalid."],
    ["page=-1", "page", "The page field must be an integer."],
  ])("rejects %s with a 422", async (query, field, message) => {
    expect(await getJson(`/api/v1/projects?${query}`, 422)).toEqual({ message, errors: { [field]: [message] } });
  });
});

describe("DELETE /api/v1/projects/{project}", () => {
  it.each(["my shop", "café-münchen.de", "northwind-coffee.com"])(
    "deletes %s by its URL-encoded name, with its reports",
    async (name) => {
      const before = await getJson<Page<Report>>(`/api/v1/reports?project=${encodeURIComponent(name)}`);
      expect(before.meta.total).toBeGreaterThan(0);
      const res = await call(`/api/v1/projects/${encodeURIComponent(name)}`, { method: "DELETE" });
      expect(res.status).toBe(204);
      expect(await res.text()).toBe("");
      expect((await getJson<Page<Report>>(`/api/v1/reports?project=${encodeURIComponent(name)}`)).meta.total).toBe(0);
      expect((await getJson<Page<Report>>("/api/v1/reports")).meta.total).toBe(160 - before.meta.total);
      const projects = (await getJson<Page<{ project: string }>>("/api/v1/projects?per_page=100")).data.map(
        (p) => p.project,
      );
      expect(projects).not.toContain(name);
      expect(projects).toHaveLength(12);
    },
  );

  it.each(["no-such-project", "My%20Shop", "%E0%A4%A", "my+shop"])("answers 404 for %s", async (encoded) => {
    const res = await call(`/api/v1/projects/${encoded}`, { method: "DELETE" });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ message: "Not found." });
    expect((await getJson<Page<unknown>>("/api/v1/projects")).meta.total).toBe(13);
  });
});
