// Area A, the reports API, served under /seo. The document leaves bodies, statuses and errors open; they
// follow Laravel's conventions (see laravel.ts and lib/sandbox/README.md, "Assumptions").
import { domainToUnicode } from "node:url";

import { z } from "zod";

import { json, type Area, type Handler, type Reply, type SandboxRequest } from "./area";
import {
  laravelInput,
  messages,
  oneOf,
  optionalString,
  paginate,
  positiveInteger,
  validate,
  type ValidationErrors,
} from "./laravel";
import { deriveResult, isoSeconds, type Privacy, type ReportRecord } from "./seed";
import type { ReportsStore } from "./store";

const NOT_FOUND = { message: "Not found." };
const PER_PAGE = ["10", "25", "50", "100"] as const;

/** The report as the API shows it: everything but the password and the internal revision counter. */
function reportResource(report: ReportRecord) {
  return {
    id: report.id,
    url: report.url,
    project: report.project,
    result: report.result,
    generated_at: report.generated_at,
    privacy: report.privacy,
    created_at: report.created_at,
    updated_at: report.updated_at,
  };
}

/** Case-insensitive, then by code unit: the same order on every machine, unlike locale collation. */
function compareText(a: string, b: string): number {
  const [x, y] = [a.toLowerCase(), b.toLowerCase()];
  if (x !== y) return x < y ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "";
  } catch {
    return false;
  }
}

/** A report's project is its URL's host; an IDN host is named in Unicode, as people write it. */
export function projectOf(url: string): string {
  const hostname = new URL(url).hostname;
  return domainToUnicode(hostname) || hostname;
}

const paging = {
  per_page: oneOf("per_page", PER_PAGE).optional(),
  page: positiveInteger("page").optional(),
};

const listReportsSchema = z.object({
  search: optionalString("search", 2048).optional(),
  search_by: oneOf("search_by", ["url"]).optional(),
  project: optionalString("project", 255).optional(),
  result: oneOf("result", ["good", "decent", "bad"]).optional(),
  sort_by: oneOf("sort_by", ["id", "generated_at", "url", "result"]).optional(),
  sort: oneOf("sort", ["desc", "asc"]).optional(),
  ...paging,
});

const privacySchema = oneOf("privacy", ["0", "1", "2"]).transform((value) => Number(value) as Privacy);
const passwordSchema = optionalString("password", 255);

const storeReportSchema = z.object({
  url: z
    .string({ error: messages.required("url") })
    .max(2048, { error: messages.maxString("url", 2048) })
    .refine(isHttpUrl, { error: messages.url("url") }),
  privacy: privacySchema.optional(),
  password: passwordSchema.optional(),
});

const updateReportSchema = z.object({
  privacy: privacySchema.optional(),
  password: passwordSchema.optional(),
  results: oneOf("results", ["0", "1"]).optional(),
});

const listProjectsSchema = z.object({
  search: optionalString("search", 255).optional(),
  search_by: oneOf("search_by", ["project"]).optional(),
  sort_by: oneOf("sort_by", ["created_at", "project"]).optional(),
  sort: oneOf("sort", ["desc", "asc"]).optional(),
  ...paging,
});

export function createReportsArea(opts: { store: ReportsStore; keys: ReadonlySet<string>; prefix: string }): Area {
  const { store } = opts;
  const now = () => isoSeconds(Date.now());

  // Laravel matches the route (404, 405) before the auth middleware runs, so authentication wraps handlers.
  const authenticated =
    (handler: Handler): Handler =>
    (req, params) => {
      const token = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? "")?.[1];
      return token !== undefined && opts.keys.has(token)
        ? handler(req, params)
        : json(401, { message: "Unauthenticated." });
    };

  function findReport(idParam: string | undefined): ReportRecord | undefined {
    if (!idParam || !/^\d+$/.test(idParam)) return undefined;
    const id = Number(idParam);
    return store.data.reports.find((report) => report.id === id);
  }

  function listReports(req: SandboxRequest): Reply {
    const input = validate(listReportsSchema, laravelInput(req.query));
    if (!input.ok) return input.reply;
    const { search, project, result, sort_by = "id", sort = "desc", per_page = "10", page = 1 } = input.data;
    const needle = search?.toLowerCase();
    const rows = store.data.reports.filter(
      (report) =>
        (needle === undefined || report.url.toLowerCase().includes(needle)) &&
        (project === undefined || report.project === project) &&
        (result === undefined || report.result === result),
    );
    const direction = sort === "asc" ? 1 : -1;
    rows.sort((a, b) => {
      const primary = sort_by === "id" ? a.id - b.id : compareText(String(a[sort_by]), String(b[sort_by]));
      // Ties keep a stable order (by id, in the same direction) so that pages never overlap.
      return direction * (primary !== 0 ? primary : a.id - b.id);
    });
    const perPage = Number(per_page);
    const body = paginate(rows, { page, perPage, path: `${req.baseUrl}/api/v1/reports`, query: req.query });
    return json(200, { ...body, data: body.data.map(reportResource) });
  }

  function showReport(_req: SandboxRequest, [id]: string[]): Reply {
    const report = findReport(id);
    return report ? json(200, { data: reportResource(report) }) : json(404, NOT_FOUND);
  }

  function storeReport(req: SandboxRequest): Reply {
    const input = validate(storeReportSchema, laravelInput(req.form), passwordRequiredWhenPrivacyTwo);
    if (!input.ok) return input.reply;
    const { url, privacy = 0, password } = input.data;
    const project = projectOf(url);
    const timestamp = now();
    if (!store.data.projects.some((p) => p.project === project))
      store.data.projects.push({ project, created_at: timestamp });
    const report: ReportRecord = {
      id: store.data.nextReportId++,
      url,
      project,
      result: deriveResult(url, 0),
      generated_at: timestamp,
      privacy,
      password: privacy === 2 ? (password ?? null) : null,
      revision: 0,
      created_at: timestamp,
      updated_at: timestamp,
    };
    store.data.reports.push(report);
    store.changed();
    return json(201, { data: reportResource(report) });
  }

  function updateReport(req: SandboxRequest, [id]: string[]): Reply {
    const report = findReport(id);
    if (!report) return json(404, NOT_FOUND);
    // Switching to privacy 2 needs a password unless the report already has one.
    const input = validate(updateReportSchema, laravelInput(req.form), (fields) =>
      fields.privacy === "2" && !fields.password && !(report.privacy === 2 && report.password)
        ? passwordRequiredWhenPrivacyTwo(fields)
        : {},
    );
    if (!input.ok) return input.reply;
    const { privacy, password, results } = input.data;
    const before = JSON.stringify(report);
    const timestamp = now();
    if (privacy !== undefined) {
      report.privacy = privacy;
      if (privacy !== 2) report.password = null;
    }
    if (password !== undefined && report.privacy === 2) report.password = password;
    if (results === "1") {
      report.revision += 1;
      const next = store.nextResults.get(report.id);
      store.nextResults.delete(report.id);
      report.result = next?.result ?? deriveResult(report.url, report.revision);
      report.generated_at = next?.generated_at ?? timestamp;
    }
    if (JSON.stringify(report) !== before) {
      report.updated_at = timestamp;
      store.changed();
    }
    return json(200, { data: reportResource(report) });
  }

  function deleteReport(_req: SandboxRequest, [id]: string[]): Reply {
    const report = findReport(id);
    if (!report) return json(404, NOT_FOUND);
    store.data.reports = store.data.reports.filter((r) => r !== report);
    store.changed();
    return json(204);
  }

  function listProjects(req: SandboxRequest): Reply {
    const input = validate(listProjectsSchema, laravelInput(req.query));
    if (!input.ok) return input.reply;
    const { search, sort_by = "created_at", sort = "desc", per_page = "10", page = 1 } = input.data;
    const needle = search?.toLowerCase();
    const rows = store.data.projects.filter((p) => needle === undefined || p.project.toLowerCase().includes(needle));
    const direction = sort === "asc" ? 1 : -1;
    rows.sort((a, b) => {
      const primary =
        sort_by === "project" ? compareText(a.project, b.project) : compareText(a.created_at, b.created_at);
      return direction * (primary !== 0 ? primary : compareText(a.project, b.project));
    });
    const body = paginate(rows, {
      page,
      perPage: Number(per_page),
      path: `${req.baseUrl}/api/v1/projects`,
      query: req.query,
    });
    return json(200, { ...body, data: body.data.map((p) => ({ project: p.project, created_at: p.created_at })) });
  }

  function deleteProject(_req: SandboxRequest, [encodedName]: string[]): Reply {
    let name: string;
    try {
      name = decodeURIComponent(encodedName ?? "");
    } catch {
      return json(404, NOT_FOUND); // malformed percent-encoding names no project
    }
    if (!store.data.projects.some((p) => p.project === name)) return json(404, NOT_FOUND);
    store.data.projects = store.data.projects.filter((p) => p.project !== name);
    store.data.reports = store.data.reports.filter((r) => r.project !== name);
    store.changed();
    return json(204);
  }

  return {
    prefix: opts.prefix,
    routes: [
      {
        pattern: /^\/api\/v1\/reports\/?$/,
        methods: { GET: authenticated(listReports), POST: authenticated(storeReport) },
      },
      {
        pattern: /^\/api\/v1\/reports\/([^/]+)\/?$/,
        methods: {
          GET: authenticated(showReport),
          PUT: authenticated(updateReport),
          PATCH: authenticated(updateReport),
          DELETE: authenticated(deleteReport),
        },
      },
      { pattern: /^\/api\/v1\/projects\/?$/, methods: { GET: authenticated(listProjects) } },
      { pattern: /^\/api\/v1\/projects\/([^/]+)\/?$/, methods: { DELETE: authenticated(deleteProject) } },
    ],
    notFound: (req) => json(404, { message: `The route ${routeName(req)} could not be found.` }),
    methodNotAllowed: (req, allowed) => {
      const methods = allowed.includes("GET") ? ["GET", "HEAD", ...allowed.filter((m) => m !== "GET")] : allowed;
      return json(
        405,
        {
          message: `The ${req.method} method is not supported for route ${routeName(req)}. Supported methods: ${methods.join(", ")}.`,
        },
        { allow: methods.join(", ") },
      );
    },
    errorBody: (_status, message) => ({ message }),
  };
}

/** Laravel names routes without the leading slash ("api/v1/reports"). */
function routeName(req: SandboxRequest): string {
  return req.path.replace(/^\//, "") || "/";
}

function passwordRequiredWhenPrivacyTwo(fields: Record<string, string>): ValidationErrors {
  return fields.privacy === "2" && !fields.password
    ? { password: [messages.requiredIf("password", "privacy", "2")] }
    : {};
}

export const reportResultControlSchema = z.strictObject({
  result: z.enum(["good", "decent", "bad"]),
  /** ISO 8601; the time of the regeneration (or now) when absent. */
  generated_at: z.iso.datetime().optional(),
  /** next (default): the report's next `results=1` gives it; now: the report has it at once (a regeneration upstream). */
  when: z.enum(["next", "now"]).default("next"),
});
export type ReportResultControl = z.output<typeof reportResultControlSchema>;

/** The control API's "set a report's result": null when there is no such report. */
export function setReportResult(
  store: ReportsStore,
  id: number,
  control: ReportResultControl,
): ReturnType<typeof reportResource> | null {
  const report = store.data.reports.find((each) => each.id === id);
  if (!report) return null;
  const generatedAt = control.generated_at === undefined ? undefined : isoSeconds(Date.parse(control.generated_at));
  if (control.when === "next") {
    store.nextResults.set(id, { result: control.result, generated_at: generatedAt });
    return reportResource(report);
  }
  report.revision += 1;
  report.result = control.result;
  report.generated_at = generatedAt ?? isoSeconds(Date.now());
  report.updated_at = isoSeconds(Date.now());
  store.changed();
  return reportResource(report);
}
