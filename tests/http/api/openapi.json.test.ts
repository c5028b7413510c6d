// GET /api/openapi.json against the server that serves it: the document passes Redocly's recommended ruleset, and
// every query parameter it documents — each enum value, each limit and pattern, each default — is what the
// server accepts, refuses and does (over HTTP, on the production build, against the sandbox).
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";

import { beforeAll, describe, expect, it } from "vitest";

import type { GatewayResponse } from "@/tests/support/gateway";
import { setUpGateway } from "@/tests/support/set-up-gateway";

const run = promisify(execFile);

interface JsonSchema {
  enum?: string[];
  maxLength?: number;
  pattern?: string;
  anyOf?: JsonSchema[];
  not?: object;
  default?: string;
}
interface Parameter {
  name: string;
  in: string;
  schema: JsonSchema;
  required?: boolean;
}
interface Operation {
  operationId: string;
  parameters: Parameter[];
  security: unknown[];
  responses: Record<string, unknown>;
}
type Document = {
  info: Record<string, unknown>;
  tags: Array<{ name: string; description?: string }>;
  paths: Record<string, Record<string, Operation>>;
};

const { gateway, client: admin } = setUpGateway({ signIn: "admin" });
let doc: Document;
let served: string;
let bulkJobId: string;

beforeAll(async () => {
  // A finished job for the routes under /api/purchases/bulk/{id}: one refused code, so it is done at once.
  const job = await admin.request("/api/purchases/bulk", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ codes: ["\u0430bc"] }),
  });
  bulkJobId = job.json.data.id;
  const res = await gateway.request("/api/openapi.json");
  expect(res.status).toBe(200);
  served = res.text;
  doc = res.json as Document;
});

describe("the served document", () => {
  it("passes Redocly's recommended ruleset with no error; the one warning left is the licence, which the owner has not chosen", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "gatehouse-openapi-"));
    try {
      const file = path.join(dir, "openapi.json");
      await writeFile(file, served);
      const cli = path.join("node_modules", ".bin", "redocly");
      const report = await run(cli, ["lint", file, "--extends", "recommended", "--format", "json"], {
        env: { ...process.env, REDOCLY_TELEMETRY: "off" },
      }).catch((failed: { stdout?: string; stderr?: string }) => ({
        stdout: failed.stdout ?? "",
        stderr: failed.stderr ?? "",
      }));
      const { problems } = JSON.parse(report.stdout) as {
        problems: Array<{ ruleId: string; severity: string; message: string; location: Array<{ pointer: string }> }>;
      };
      expect(problems.filter((p) => p.severity === "error")).toEqual([]);
      // The two steps of single sign-on are redirects by nature (to the provider, back to a page): no 2xx to give.
      const redirectOnly = (p: (typeof problems)[number]) =>
        p.ruleId === "operation-2xx-response" && p.location.some((at) => at.pointer.includes("~1api~1auth~1oidc~1"));
      expect(problems.filter(redirectOnly)).toHaveLength(2);
      expect(problems.filter((p) => !redirectOnly(p)).map((p) => `${p.severity} ${p.ruleId}`)).toEqual([
        "warn info-license",
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("says which operations are public (security: []) and describes every tag", () => {
    const operations = Object.values(doc.paths).flatMap((methods) => Object.values(methods));
    const publicOnes = operations.filter((op) => op.security.length === 0).map((op) => op.operationId);
    // helpScoutCard: no session or token, Help Scout's signature of the body is its credential. The licence API:
    // installed copies, whose purchase code is theirs; its answers name the headers of their signature.
    // unsubscribeNotifications: an e-mail's one click, whose sealed token is its credential. secondFactor, passkeySignIn:
    // sign-ins (the pending sign-in's cookie, a passkey's signature); passkeyOptions: a challenge for either.
    expect(publicOnes.sort()).toEqual([
      "activateLicence",
      "deactivateLicence",
      "health",
      "helpScoutCard",
      "licenceKeys",
      "login",
      "logout",
      "openapi",
      "passkeyOptions",
      "passkeySignIn",
      "ready",
      "secondFactor",
      "ssoCallback",
      "ssoStart",
      "unsubscribeNotifications",
      "validateLicence",
    ]);
    const refused = doc.paths["/api/licences/activate"]?.post?.responses["403"] as { headers: object } | undefined;
    expect(Object.keys(refused?.headers ?? {})).toEqual([
      "X-Request-Id",
      "Gatehouse-Signature",
      "Gatehouse-Signature-Key",
    ]);
    for (const tag of doc.tags) expect(tag.description, tag.name).toBeTruthy();
    for (const op of operations)
      expect(
        Object.keys(op.responses).some((status) => status.startsWith("4")),
        op.operationId,
      ).toBe(true);
  });
});

/** Whether the document's schema of a query parameter admits `value` (the subset of JSON Schema it uses). */
function documentedAsValid(schema: JsonSchema, value: string): boolean {
  if (schema.not) return false;
  if (schema.anyOf) return schema.anyOf.some((branch) => documentedAsValid(branch, value));
  if (schema.enum && !schema.enum.includes(value)) return false;
  if (schema.maxLength !== undefined && value.length > schema.maxLength) return false;
  if (schema.pattern && !new RegExp(schema.pattern, "u").test(value)) return false;
  return true;
}

/** Values to try on a parameter: its enum and just past it, its length limit and one more, and common shapes. */
function candidates(schema: JsonSchema): string[] {
  const out = new Set([
    "1",
    "0",
    "-1",
    "abc",
    "1000000",
    "9".repeat(16),
    "a\u0001b",
    "2025-03-01",
    "2025-02-30",
    "2025-03-01T12:00:00Z",
    "2025-03-01T12:00:00+02:00",
    "yesterday",
  ]);
  for (const branch of [schema, ...(schema.anyOf ?? [])]) {
    for (const value of branch.enum ?? []) out.add(value);
    if (branch.enum) out.add(`${branch.enum[0]}x`);
    if (branch.maxLength !== undefined) {
      out.add("a".repeat(branch.maxLength));
      out.add("a".repeat(branch.maxLength + 1));
    }
  }
  return [...out];
}

/** A value for each path parameter, and for each required query parameter when another one is tested. */
const PATH_SAMPLES: Record<string, string> = { project: "acme-tools.io", id: "1" };
const REQUIRED_SAMPLES: Record<string, string> = { from: "2025-03-01", to: "2025-03-01", format: "ndjson" };

const queryOperations = () =>
  Object.entries(doc.paths).flatMap(([path, methods]) =>
    // GETs: what these tests ask with (the unsubscribe's POST takes its token in the query too, tested in
    // tests/http/api/admin/notification-channels.test.ts).
    Object.entries(methods)
      .filter(([method]) => method === "get")
      .map(([, op]) => op)
      .filter((op) => op.parameters.some((p) => p.in === "query"))
      .map((op) => {
        const query = op.parameters.filter((p) => p.in === "query");
        // A bulk job's id is the finished job made above; every other path parameter its sample.
        const sample = (name: string) =>
          name === "id" && path.startsWith("/api/purchases/bulk/") ? bulkJobId : (PATH_SAMPLES[name] ?? name);
        const route = path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(sample(name)));
        const required = Object.fromEntries(
          query.filter((p) => p.required).map((p) => [p.name, REQUIRED_SAMPLES[p.name] ?? ""]),
        );
        return { route, op, query, required };
      }),
  );

const get = (route: string, params: Record<string, string> = {}): Promise<GatewayResponse> =>
  admin.request(`${route}${Object.keys(params).length > 0 ? `?${new URLSearchParams(params)}` : ""}`);

describe("every documented query parameter against what the server does", () => {
  it("finds the operations with a query: the lists, the history's CSV, the audit export, a bulk job's results and CSV, every person's tokens, the sign-in's start and the reports over time", () => {
    expect(
      queryOperations()
        .map(({ op }) => op.operationId)
        .sort(),
    ).toEqual([
      "compareProject",
      "exportAudit",
      "exportBulkJob",
      "exportPurchaseHistory",
      "listAlerts",
      "listAudit",
      "listBulkJobResults",
      "listEveryToken",
      "listProjects",
      "listPurchaseHistory",
      "listReports",
      "listSupportExpiring",
      "resultTrend",
      "ssoStart",
    ]);
  });

  it("accepts what the document admits and refuses (400, naming the parameter) what it does not: enums, limits, patterns, dates", async () => {
    const disagreements: string[] = [];
    for (const { route, op, query, required } of queryOperations()) {
      for (const parameter of query) {
        for (const value of candidates(parameter.schema)) {
          const expected = documentedAsValid(parameter.schema, value);
          const res = await get(route, { ...required, [parameter.name]: value });
          // Accepted: one of the operation's documented answers below 400 (the sign-in's are redirects).
          const accepted = res.status < 400 && String(res.status) in op.responses;
          const refused = res.status === 400 && typeof res.json?.error?.fields?.[parameter.name] === "string";
          if (expected ? !accepted : !refused) {
            disagreements.push(
              `${route}?${parameter.name}=${JSON.stringify(value).slice(0, 40)}: documented ${expected ? "valid" : "invalid"}, answered ${res.status}`,
            );
          }
        }
      }
    }
    expect(disagreements).toEqual([]);
  });

  it("does without a parameter what the document says is its default", async () => {
    const disagreements: string[] = [];
    for (const { route, query, required } of queryOperations()) {
      for (const parameter of query.filter((p) => p.schema.default !== undefined)) {
        const without = await get(route, required);
        const withDefault = await get(route, { ...required, [parameter.name]: parameter.schema.default! });
        expect(without.status, route).toBe(200);
        if (withDefault.text !== without.text)
          disagreements.push(
            `${route}: ${parameter.name}=${parameter.schema.default} answers otherwise than leaving it out`,
          );
      }
    }
    expect(disagreements).toEqual([]);
    // The defaults are the lists' real page sizes.
    expect((await get("/api/reports")).json.meta.per_page).toBe(10);
    expect((await get("/api/purchases/history")).json.meta.per_page).toBe(25);
    expect((await get("/api/admin/audit")).json.meta.per_page).toBe(25);
  });

  it("refuses every parameter it does not document, except the paging the history's CSV takes from its list and ignores", async () => {
    for (const { route, required } of queryOperations()) {
      const res = await get(route, { ...required, perpage: "50" });
      expect(res.status, route).toBe(400);
      expect(res.json.error.fields, route).toEqual({ perpage: "Unknown query parameter." });
    }
    const csv = await get("/api/purchases/history.csv", { per_page: "5", page: "not a page" });
    expect(csv.status).toBe(200);
    expect(csv.text).toBe((await get("/api/purchases/history.csv")).text);
  });
});

describe("ids the document calls UUIDs", () => {
  it("finds an existing bulk job by its id in either letter case", async () => {
    const created = await admin.request("/api/purchases/bulk", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ codes: ["not a code"] }),
    });
    expect(created.status).toBe(202);
    const id = created.json.data.id as string;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    for (const shown of [id, id.toUpperCase()]) {
      const res = await admin.request(`/api/purchases/bulk/${shown}`);
      expect(res.status, shown).toBe(200);
      expect(res.json.data.id).toBe(id);
    }
  });
});

describe("key custody", () => {
  it("no canary key appeared in any response or log line of this file", () => {
    expect(() => gateway.assertNoKeyLeaked()).not.toThrow();
  });
});
