// How long the HTTP server waits for a slow client: HTTP_HEADERS_TIMEOUT_MS, HTTP_REQUEST_TIMEOUT_MS and
// HTTP_KEEP_ALIVE_TIMEOUT_MS, validated here. Node's own defaults let a client that trickles its request hold a
// route handler for 300 s; an API's requests are small (a bulk job's 1 MiB at most), so a client gets seconds.
// `npm start` gives them to the server when it creates it (lib/cli/serve.ts); the start-up check (./env.ts) names
// a bad one. No `server-only`: the CLIs read it before Next runs.
import { z } from "zod";

type Env = Record<string, string | undefined>;

export interface HttpServerSettings {
  /** HTTP_HEADERS_TIMEOUT_MS: from the connection's first byte until the request's headers are all in. */
  headersTimeoutMs: number;
  /** HTTP_REQUEST_TIMEOUT_MS: until the whole request, body included, is in (at least the headers' time). */
  requestTimeoutMs: number;
  /** HTTP_KEEP_ALIVE_TIMEOUT_MS: how long an idle kept-alive connection stays open for the next request. */
  keepAliveTimeoutMs: number;
}

export const DEFAULT_HTTP_SERVER: HttpServerSettings = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
};

/** Each setting's variable; `npm start` also hands the resolved values to the server in these. */
export const HTTP_SERVER_VARIABLES = {
  headersTimeoutMs: "HTTP_HEADERS_TIMEOUT_MS",
  requestTimeoutMs: "HTTP_REQUEST_TIMEOUT_MS",
  keepAliveTimeoutMs: "HTTP_KEEP_ALIVE_TIMEOUT_MS",
} as const satisfies Record<keyof HttpServerSettings, string>;

const milliseconds = (max: number) =>
  z
    .string()
    .trim()
    .regex(/^\d+$/, "must be a whole number of milliseconds")
    .transform(Number)
    .pipe(z.number().min(1000, "must be at least 1000 milliseconds").max(max, `must be at most ${max} milliseconds`));

const BOUNDS: Record<keyof HttpServerSettings, number> = {
  headersTimeoutMs: 120_000,
  requestTimeoutMs: 600_000,
  keepAliveTimeoutMs: 600_000,
};

export interface HttpServerProblem {
  variable: string;
  problem: string;
  value?: string;
}

/** The settings, defaults filled in (a bad value counts as unset), and one problem per bad value. */
export function parseHttpServerSettings(env: Env): { settings: HttpServerSettings; problems: HttpServerProblem[] } {
  const problems: HttpServerProblem[] = [];
  const settings = { ...DEFAULT_HTTP_SERVER };
  for (const field of Object.keys(HTTP_SERVER_VARIABLES) as Array<keyof HttpServerSettings>) {
    const variable = HTTP_SERVER_VARIABLES[field];
    const value = env[variable];
    if (value === undefined || value.trim() === "") continue;
    const parsed = milliseconds(BOUNDS[field]).safeParse(value);
    if (parsed.success) settings[field] = parsed.data;
    else problems.push({ variable, problem: parsed.error.issues[0]?.message ?? "is invalid", value });
  }
  // Node refuses a server whose headers may take longer than the whole request.
  if (settings.headersTimeoutMs > settings.requestTimeoutMs) {
    problems.push({
      variable: HTTP_SERVER_VARIABLES.headersTimeoutMs,
      problem: `must not be longer than HTTP_REQUEST_TIMEOUT_MS (${settings.requestTimeoutMs} ms), which includes the headers`,
      value: String(settings.headersTimeoutMs),
    });
    return { settings: DEFAULT_HTTP_SERVER, problems };
  }
  return { settings, problems };
}
