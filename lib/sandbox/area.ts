// What the server hands an area (one parsed request) and what an area hands back (one reply). The server owns
// sockets, bodies, the log and faults; an area only maps requests to replies.

export interface SandboxRequest {
  method: string; // HEAD is routed as GET
  /** The path inside the area, still percent-encoded, e.g. "/api/v1/projects/my%20shop". */
  path: string;
  query: URLSearchParams;
  /** The x-www-form-urlencoded body, or null when there was none. */
  form: URLSearchParams | null;
  headers: Record<string, string>;
  /** Absolute URL of the area as the client reached it, e.g. "http://127.0.0.1:4010/seo"; links build on it. */
  baseUrl: string;
}

export interface Reply {
  status: number;
  body?: unknown; // JSON-encoded; no body when undefined
  headers?: Record<string, string>;
}

export type Handler = (req: SandboxRequest, params: string[]) => Reply;

export interface Route {
  /** Matched against SandboxRequest.path; capture groups become `params` (still percent-encoded). */
  pattern: RegExp;
  methods: Partial<Record<"GET" | "POST" | "PUT" | "PATCH" | "DELETE", Handler>>;
}

export interface Area {
  prefix: string;
  routes: Route[];
  notFound(req: SandboxRequest): Reply;
  methodNotAllowed(req: SandboxRequest, allowed: string[]): Reply;
  /** A body in the area's error style for a status the sandbox produces itself (413, injected faults). */
  errorBody(status: number, message: string): unknown;
}

export function json(status: number, body?: unknown, headers?: Record<string, string>): Reply {
  return { status, body, headers };
}

export function dispatch(area: Area, req: SandboxRequest): Reply {
  for (const route of area.routes) {
    const match = route.pattern.exec(req.path);
    if (!match) continue;
    const handler = route.methods[req.method as keyof Route["methods"]];
    if (!handler) return area.methodNotAllowed(req, Object.keys(route.methods));
    return handler(req, match.slice(1));
  }
  return area.notFound(req);
}
