// Client of area A, the reports API: one typed function per documented operation. Inputs arrive validated
// (lib/contract); answers leave as contract objects. Laravel conventions fill the document's gaps:
// Bearer key, `Accept: application/json`, form-urlencoded bodies, `page` for the page number, update by PUT.
// Reads go through the area's policy (cache, single flight); every change declares what it makes stale.
import "server-only";

import type { Page } from "@/lib/contract/common";
import type { Project, ProjectListQuery } from "@/lib/contract/projects";
import type { Report, ReportCreateInput, ReportListQuery, ReportUpdateInput } from "@/lib/contract/reports";
import type { ReportsAreaConfig } from "@/lib/config/env";

import { UpstreamError } from "./errors";
import { retryAfterOf, type UpstreamResponse } from "./http";
import { DIRECT, keyFingerprint, requestKey, type UpstreamPolicy } from "./policy";
import {
  laravelMessage,
  parseList,
  parseSingle,
  parseValidationErrors,
  UpstreamProjectSchema,
  UpstreamReportSchema,
  type ParseResult,
} from "./shapes";

/**
 * Answers of reads may come from the cache and are shared: treat them as read-only (they are frozen).
 * `fresh: true` skips the cache (readiness checks).
 */
export interface ReportsClient {
  listReports(query: ReportListQuery): Promise<Page<Report>>;
  getReport(id: number): Promise<Report>;
  createReport(input: ReportCreateInput): Promise<Report>;
  updateReport(id: number, input: ReportUpdateInput): Promise<Report>;
  deleteReport(id: number): Promise<void>;
  listProjects(query: ProjectListQuery, options?: { fresh?: boolean }): Promise<Page<Project>>;
  deleteProject(name: string): Promise<void>;
}

/**
 * Cache tags of area A. A report's page shows its project, and a new report's URL can found a project, so every
 * report change drops project lists too; a project's deletion takes its reports, whichever they are.
 */
export const REPORTS_TAGS = {
  reportList: "reports:list",
  anyReport: "reports:item",
  report: (id: number) => `reports:item:${id}`,
  projectList: "projects:list",
} as const;

function reportChangeTags(id?: number): string[] {
  return [REPORTS_TAGS.reportList, REPORTS_TAGS.projectList, ...(id === undefined ? [] : [REPORTS_TAGS.report(id)])];
}

type Method = "GET" | "POST" | "PUT" | "DELETE";

interface Call {
  operation: string;
  /** True when the path names one resource, so that a 404 means "no such report/project". */
  addressesResource?: boolean;
  method: Method;
  path: string;
  query?: Record<string, string | number | undefined>;
  form?: Record<string, string | number | undefined>;
}

function definedStrings(
  values: Record<string, string | number | undefined> | undefined,
): Record<string, string> | undefined {
  if (!values) return undefined;
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(values)) if (value !== undefined) out[name] = String(value);
  return out;
}

function assertId(id: number): number {
  if (!Number.isSafeInteger(id) || id < 1) throw new RangeError("report id must be a positive integer");
  return id;
}

export function createReportsClient(
  config: ReportsAreaConfig,
  options: { timeoutMs: number; policy?: UpstreamPolicy },
): ReportsClient {
  const policy = options.policy ?? DIRECT;
  const fingerprint = keyFingerprint(config.apiKey);

  async function call(spec: Call): Promise<UpstreamResponse> {
    const url = new URL(config.baseUrl + spec.path);
    for (const [name, value] of Object.entries(definedStrings(spec.query) ?? {})) url.searchParams.set(name, value);
    const response = await policy.send({
      area: "reports",
      operation: spec.operation,
      method: spec.method,
      url,
      headers: { Authorization: `Bearer ${config.apiKey}`, Accept: "application/json" },
      form: definedStrings(spec.form),
      timeoutMs: options.timeoutMs,
    });
    if (response.status >= 200 && response.status < 300) return response;
    throw errorFromStatus(spec, response);
  }

  function fail(operation: string, response: UpstreamResponse, problem: string): UpstreamError {
    return new UpstreamError({
      kind: "bad_response",
      area: "reports",
      operation,
      status: response.status,
      detail: `answered in a shape Gatehouse does not understand (${problem})`,
    });
  }

  function json<T>(operation: string, response: UpstreamResponse, parse: (json: unknown) => ParseResult<T>): T {
    if (response.body.kind !== "json") {
      throw fail(operation, response, response.body.kind === "empty" ? "empty body" : "malformed JSON");
    }
    const parsed = parse(response.body.value);
    if (!parsed.ok) throw fail(operation, response, parsed.problem);
    return parsed.value;
  }

  // The document shows no delete answer: 204, or 200 with any JSON (e.g. a message), are success; non-JSON is not.
  function expectNoBodyOrJson(operation: string, response: UpstreamResponse): void {
    if (response.body.kind === "not_json") throw fail(operation, response, "malformed JSON");
  }

  /** A GET through the cache and single flight, keyed by the normalised request. */
  function read<T>(
    spec: Call & { method: "GET" },
    tags: readonly string[],
    parse: (response: UpstreamResponse) => T,
    fresh?: boolean,
  ): Promise<T> {
    const key = requestKey({
      area: "reports",
      keyFingerprint: fingerprint,
      method: spec.method,
      path: spec.path,
      query: spec.query,
    });
    return policy.read({ key, tags, fresh }, async () => parse(await call(spec)));
  }

  /**
   * A change, then the cache entries it makes stale are dropped — also when it failed, since a timeout or a
   * lost answer may hide a change that did happen. Whoever reads after this returns sees the upstream's state.
   */
  async function change<T>(tags: readonly string[], send: () => Promise<T>): Promise<T> {
    try {
      return await send();
    } finally {
      await policy.invalidate(tags);
    }
  }

  const reportPath = (id: number) => `/api/v1/reports/${assertId(id)}`;

  return {
    async listReports(query) {
      const operation = "reports.list";
      return read({ operation, method: "GET", path: "/api/v1/reports", query }, [REPORTS_TAGS.reportList], (response) =>
        json(operation, response, (j) => parseList(j, UpstreamReportSchema, query.per_page)),
      );
    },
    async getReport(id) {
      const operation = "reports.show";
      const spec = { operation, method: "GET", path: reportPath(id), addressesResource: true } as const;
      return read(spec, [REPORTS_TAGS.anyReport, REPORTS_TAGS.report(id)], (response) =>
        json(operation, response, (j) => parseSingle(j, UpstreamReportSchema)),
      );
    },
    async createReport(input) {
      const operation = "reports.store";
      return change(reportChangeTags(), async () => {
        const response = await call({ operation, method: "POST", path: "/api/v1/reports", form: input });
        return json(operation, response, (j) => parseSingle(j, UpstreamReportSchema));
      });
    },
    async updateReport(id, input) {
      const operation = "reports.update";
      const form = { privacy: input.privacy, password: input.password, results: input.results ? 1 : undefined };
      return change(reportChangeTags(id), async () => {
        const response = await call({ operation, method: "PUT", path: reportPath(id), form, addressesResource: true });
        return json(operation, response, (j) => parseSingle(j, UpstreamReportSchema));
      });
    },
    async deleteReport(id) {
      const operation = "reports.delete";
      await change(reportChangeTags(id), async () => {
        expectNoBodyOrJson(
          operation,
          await call({ operation, method: "DELETE", path: reportPath(id), addressesResource: true }),
        );
      });
    },
    async listProjects(query, options) {
      const operation = "projects.list";
      const spec = { operation, method: "GET", path: "/api/v1/projects", query } as const;
      return read(
        spec,
        [REPORTS_TAGS.projectList],
        (response) => json(operation, response, (j) => parseList(j, UpstreamProjectSchema, query.per_page)),
        options?.fresh,
      );
    },
    async deleteProject(name) {
      if (name === "") throw new RangeError("project name must not be empty");
      // The name is the path segment, encoded: spaces, slashes and non-ASCII letters stay inside it.
      const operation = "projects.delete";
      const path = `/api/v1/projects/${encodeURIComponent(name)}`;
      await change([REPORTS_TAGS.projectList, REPORTS_TAGS.reportList, REPORTS_TAGS.anyReport], async () => {
        expectNoBodyOrJson(operation, await call({ operation, method: "DELETE", path, addressesResource: true }));
      });
    },
  };
}

/** Interprets a non-2xx answer of area A (Laravel: 401 Unauthenticated, 404, 422 with errors, 429). */
function errorFromStatus({ operation, addressesResource }: Call, response: UpstreamResponse): UpstreamError {
  const body = response.body.kind === "json" ? response.body.value : undefined;
  const base = { area: "reports" as const, operation, status: response.status, upstreamMessage: laravelMessage(body) };
  const { status } = response;
  if (status === 401 || status === 403) {
    return new UpstreamError({ ...base, kind: "auth", detail: "rejected Gatehouse's key" });
  }
  if (status === 404) {
    // A 404 on a list path is no "not found" for our client: the base URL is probably wrong.
    return addressesResource
      ? new UpstreamError({ ...base, kind: "not_found", detail: "has no such resource" })
      : new UpstreamError({
          ...base,
          kind: "http_status",
          detail: "does not know this path; check the area's base URL",
        });
  }
  if (status === 422) {
    const { fields } = parseValidationErrors(body);
    return new UpstreamError({ ...base, kind: "invalid", detail: "refused the input", fields });
  }
  if (status === 429) {
    const retryAfter = retryAfterOf(response.headers);
    return new UpstreamError({ ...base, kind: "rate_limited", detail: "is rate limiting Gatehouse", retryAfter });
  }
  return new UpstreamError({ ...base, kind: "http_status", detail: "answered with an error status" });
}
