// The browser's one way to call the portal API: JSON in and out, the `X-CSRF: 1` header on every state-changing
// request (the gateway refuses those without it), and the error envelope `{error:{code,message,fields,
// request_id}}` turned into an ApiRequestError that forms and error states can show as it is.
import { retryAfterSeconds } from "@/lib/contract/retry-after";

export class ApiRequestError extends Error {
  readonly status: number;
  /** The gateway's error code (invalid_input, not_found, upstream_timeout…), or "network" / "bad_answer". */
  readonly code: string;
  /** invalid_input: one message per field. */
  readonly fields: Record<string, string> | undefined;
  readonly requestId: string | undefined;
  /** Seconds from Retry-After, on a 429. */
  readonly retryAfterSeconds: number | undefined;

  constructor(options: {
    status: number;
    code: string;
    message: string;
    fields?: Record<string, string>;
    requestId?: string;
    retryAfterSeconds?: number;
  }) {
    super(options.message);
    this.name = "ApiRequestError";
    this.status = options.status;
    this.code = options.code;
    this.fields = options.fields;
    this.requestId = options.requestId;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

interface ErrorAnswer {
  code: string;
  message: string;
  fields?: Record<string, string>;
  request_id?: string;
}

// Checked by hand rather than with zod, to keep zod out of the browser's bundle. Lenient on purpose: any
// answer with a code and a message is shown, even without a request id.
function errorAnswerOf(json: unknown): ErrorAnswer | null {
  if (typeof json !== "object" || json === null || !("error" in json)) return null;
  const error: unknown = json.error;
  if (typeof error !== "object" || error === null) return null;
  const { code, message, fields, request_id } = error as Record<string, unknown>;
  if (typeof code !== "string" || typeof message !== "string") return null;
  const answer: ErrorAnswer = { code, message };
  if (typeof request_id === "string") answer.request_id = request_id;
  if (typeof fields === "object" && fields !== null) {
    answer.fields = Object.fromEntries(
      Object.entries(fields).filter((entry): entry is [string, string] => typeof entry[1] === "string"),
    );
  }
  return answer;
}

export const SESSION_ENDED_MESSAGE = "Your session has ended. Sign in again to continue.";

export interface ApiRequestOptions {
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** Sent as JSON. */
  body?: unknown;
  signal?: AbortSignal;
}

/** Calls `/api…` and returns the parsed JSON body (undefined for 204), or throws ApiRequestError. */
export async function apiRequest<T = unknown>(
  path: string,
  { method = "GET", body, signal }: ApiRequestOptions = {},
): Promise<T> {
  const headers: Record<string, string> = { Accept: "application/json" };
  if (method !== "GET") headers["X-CSRF"] = "1";
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: "same-origin",
      cache: "no-store",
      signal,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === "AbortError") throw error;
    throw new ApiRequestError({
      status: 0,
      code: "network",
      message: "Gatehouse could not be reached. Check your connection and try again.",
    });
  }

  const requestId = response.headers.get("x-request-id") ?? undefined;
  if (response.status === 204) return undefined as T;
  let json: unknown;
  try {
    json = await response.json();
  } catch {
    json = undefined;
  }
  if (response.ok && json !== undefined) return json as T;

  const answer = errorAnswerOf(json);
  if (response.status === 401) {
    throw new ApiRequestError({
      status: 401,
      code: answer?.code ?? "unauthenticated",
      message: SESSION_ENDED_MESSAGE,
      requestId,
    });
  }
  if (answer) {
    throw new ApiRequestError({
      status: response.status,
      code: answer.code,
      message: answer.message,
      fields: answer.fields,
      requestId: answer.request_id ?? requestId,
      retryAfterSeconds: retryAfterSeconds(response.headers.get("retry-after")) ?? undefined,
    });
  }
  throw new ApiRequestError({
    status: response.status,
    code: "bad_answer",
    message: `Gatehouse answered in an unexpected way (HTTP ${response.status}). Try again in a moment.`,
    requestId,
  });
}

/** The SWR fetcher: the key is the API path with its query. */
export const swrFetcher = <T>(path: string): Promise<T> => apiRequest<T>(path);

/** The login page for the current page: a signed-out person comes back here after signing in. */
export function loginUrlForCurrentPage(): string {
  const here = `${window.location.pathname}${window.location.search}`;
  return `/login?next=${encodeURIComponent(here)}`;
}
