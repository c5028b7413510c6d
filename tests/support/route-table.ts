// Every route of the portal API that calls an upstream, with a request that succeeds against the sandbox and
// the one upstream request it must cause. Shared by the table-driven HTTP tests.
import type { OperationName } from "@/lib/api/operations";
import { FIXED_PURCHASE_CODES } from "@/lib/sandbox";

import { CANARY } from "./canary";

export interface RouteCase {
  name: string;
  /** The operation in lib/api/operations, whose success schema the answer must match. */
  operation: OperationName;
  area: "reports" | "items";
  method: "GET" | "POST" | "PATCH" | "DELETE";
  path: string;
  body?: unknown;
  /** Whether the route names one resource, so that an upstream "not found" is our 404. */
  addressesResource: boolean;
  successStatus: 200 | 201 | 204;
  /** The exact upstream request. */
  upstream: {
    method: string;
    path: string;
    query: Record<string, string>;
    form: Record<string, string> | null;
  };
}

/** Report ids the table uses: 3 is updated, 4 deleted; the seed has 1..150. */
export const routeCases = (): RouteCase[] => [
  {
    name: "GET /api/reports",
    operation: "listReports",
    area: "reports",
    method: "GET",
    path: "/api/reports?result=good&sort_by=url&sort=asc&per_page=25&page=2",
    addressesResource: false,
    successStatus: 200,
    upstream: {
      method: "GET",
      path: "/seo/api/v1/reports",
      query: { result: "good", sort_by: "url", sort: "asc", per_page: "25", page: "2" },
      form: null,
    },
  },
  {
    name: "GET /api/reports/{id}",
    operation: "showReport",
    area: "reports",
    method: "GET",
    path: "/api/reports/1",
    addressesResource: true,
    successStatus: 200,
    upstream: { method: "GET", path: "/seo/api/v1/reports/1", query: {}, form: null },
  },
  {
    name: "POST /api/reports",
    operation: "createReport",
    area: "reports",
    method: "POST",
    path: "/api/reports",
    body: { url: "https://gatehouse.example.org/table", privacy: 2, password: "s3cret-page" },
    addressesResource: false,
    successStatus: 201,
    upstream: {
      method: "POST",
      path: "/seo/api/v1/reports",
      query: {},
      form: { url: "https://gatehouse.example.org/table", privacy: "2", password: "s3cret-page" },
    },
  },
  {
    name: "PATCH /api/reports/{id}",
    operation: "updateReport",
    area: "reports",
    method: "PATCH",
    path: "/api/reports/3",
    body: { privacy: 1, results: true },
    addressesResource: true,
    successStatus: 200,
    upstream: { method: "PUT", path: "/seo/api/v1/reports/3", query: {}, form: { privacy: "1", results: "1" } },
  },
  {
    name: "DELETE /api/reports/{id}",
    operation: "deleteReport",
    area: "reports",
    method: "DELETE",
    path: "/api/reports/4",
    addressesResource: true,
    successStatus: 204,
    upstream: { method: "DELETE", path: "/seo/api/v1/reports/4", query: {}, form: null },
  },
  {
    name: "GET /api/projects",
    operation: "listProjects",
    area: "reports",
    method: "GET",
    path: "/api/projects?search=shop&sort_by=project&sort=asc&per_page=50",
    addressesResource: false,
    successStatus: 200,
    upstream: {
      method: "GET",
      path: "/seo/api/v1/projects",
      query: { search: "shop", sort_by: "project", sort: "asc", per_page: "50" },
      form: null,
    },
  },
  {
    name: "DELETE /api/projects/{project}",
    operation: "deleteProject",
    area: "reports",
    method: "DELETE",
    path: `/api/projects/${encodeURIComponent("my shop")}`,
    addressesResource: true,
    successStatus: 204,
    upstream: { method: "DELETE", path: "/seo/api/v1/projects/my%20shop", query: {}, form: null },
  },
  {
    name: "GET /api/account",
    operation: "showAccount",
    area: "items",
    method: "GET",
    path: "/api/account",
    addressesResource: false,
    successStatus: 200,
    upstream: { method: "GET", path: "/market/api/account/details", query: { api_key: CANARY.items }, form: null },
  },
  {
    name: "GET /api/items",
    operation: "listItems",
    area: "items",
    method: "GET",
    path: "/api/items",
    addressesResource: false,
    successStatus: 200,
    upstream: { method: "GET", path: "/market/api/items/all", query: { api_key: CANARY.items }, form: null },
  },
  {
    name: "GET /api/items/{id}",
    operation: "showItem",
    area: "items",
    method: "GET",
    path: "/api/items/ITEM_ID",
    addressesResource: true,
    successStatus: 200,
    upstream: {
      method: "GET",
      path: "/market/api/items/item",
      query: { api_key: CANARY.items, item_id: "ITEM_ID" },
      form: null,
    },
  },
  {
    name: "POST /api/purchases/validate",
    operation: "validatePurchase",
    area: "items",
    method: "POST",
    path: "/api/purchases/validate",
    body: { purchase_code: FIXED_PURCHASE_CODES.active },
    addressesResource: false,
    successStatus: 200,
    upstream: {
      method: "POST",
      path: "/market/api/purchases/validation",
      query: {},
      form: { api_key: CANARY.items, purchase_code: FIXED_PURCHASE_CODES.active },
    },
  },
];

/** Fills in the id of an item the main seller really has (ids are the sandbox's business). */
export function withItemId(cases: RouteCase[], itemId: number): RouteCase[] {
  const fill = (text: string) => text.replace("ITEM_ID", String(itemId));
  return cases.map((c) => ({
    ...c,
    path: fill(c.path),
    upstream: {
      ...c.upstream,
      query: Object.fromEntries(Object.entries(c.upstream.query).map(([k, v]) => [k, fill(v)])),
    },
  }));
}

/** Options for `gateway.request` that send a route case as a browser would, with its cookies and tokens. */
export function browserRequest(c: RouteCase, extraHeaders: Record<string, string> = {}): RequestInit {
  return {
    method: c.method,
    headers: {
      Cookie: "gatehouse_session=browser-session-cookie; other=1",
      Authorization: "Bearer browser-supplied-token",
      "X-CSRF-Token": "browser-csrf-token",
      "X-Api-Key": "browser-api-key",
      ...(c.body === undefined ? {} : { "Content-Type": "application/json" }),
      ...extraHeaders,
    },
    body: c.body === undefined ? undefined : JSON.stringify(c.body),
  };
}
