// Starts the built portal (`next start`) on a free 127.0.0.1 port for an HTTP test file, with the environment the
// test chooses, and captures its output so tests can read the log lines. Needs a build: `npx tsx
// tests/support/build.ts`. Always `await gateway.stop()` in afterAll.
//
// Every gateway gets accounts unless the test's environment says otherwise: a session secret, a first admin
// (TEST_ADMIN) and its own temporary SQLite store. The API needs a session: `await gateway.signIn("viewer")`
// returns a client whose requests carry that user's cookie and, on POST/PUT/PATCH/DELETE, `X-CSRF: 1`.
import type { ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

import type { Role } from "@/lib/contract/values";

import { assertNoCanary, CANARY } from "./canary";
import { assertBuilt, freePort, nextStart, npmStart, ROOT, untilHealthy, type Spawned } from "./processes";
import type { TestSandbox } from "./sandbox";

export interface RecordedResponse {
  method: string;
  path: string;
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface GatewayProcess {
  url: string;
  /** fetch against the gateway; every response is recorded (for the key scan) and returned with its body read. */
  request(pathname: string, init?: RequestInit): Promise<GatewayResponse>;
  /** Everything the server printed, stdout and stderr, line by line. */
  output(): string[];
  /** The structured log lines (JSON objects) printed so far. */
  logLines(): LogLine[];
  /** Waits until the request log line with this id has been printed. */
  logLineFor(requestId: string): Promise<LogLine>;
  /** Throws if a canary key appears in any recorded response (body or header) or any output line. */
  assertNoKeyLeaked(): void;
  /** The environment the gateway was started with (after the accounts defaults). */
  env: Record<string, string>;
  /** Its accounts store (a temporary SQLite file unless the test gave DATABASE_URL). */
  databaseUrl: string;
  /** The server process itself (to send it a signal, e.g. SIGKILL for a crash). */
  child: ChildProcess;
  /**
   * Signs in and returns a client for that session. A role other than admin gets a user of its own
   * (`<role>@gatehouse.test`, created through the admin API the first time); the admin is TEST_ADMIN. Each call
   * is a new sign-in, so a new session.
   */
  signIn(who: Role | Credentials): Promise<SignedInClient>;
  stop(): Promise<void>;
  /** SIGKILL: a crash, with no chance to let go of anything; a store the test named (DATABASE_URL) is kept. */
  kill(): Promise<void>;
}

export interface Credentials {
  email: string;
  password: string;
}

export interface SignedInClient {
  user: { id: string; email: string; name: string; role: Role };
  /** The session cookie as a Cookie header value (`name=value`); follows renewals the gateway sends. */
  cookie(): string;
  /**
   * A request with this session's cookie (replacing any session cookie in `init`) and, on state-changing
   * methods, `X-CSRF: 1` unless `init` sets X-CSRF itself. Recorded for the key scan like `gateway.request`.
   */
  request(pathname: string, init?: RequestInit): Promise<GatewayResponse>;
}

export interface GatewayResponse {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed JSON body, or undefined when there was none. */
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON
}

export type LogLine = Record<string, unknown> & { msg?: string; request_id?: string };

/** The first admin of every test gateway (ADMIN_EMAIL / ADMIN_PASSWORD). */
export const TEST_ADMIN: Credentials = { email: "admin@gatehouse.test", password: "admin password for tests" };
/** The password of the users signIn(role) creates. */
export const TEST_USER_PASSWORD = "role password for tests";
export const TEST_SESSION_SECRET = "test-session-secret-0123456789-abcdefghij";

const SESSION_COOKIE = /^(__Host-)?gatehouse_session$/;

/** Environment for a gateway whose areas both point at the sandbox with the canary keys. */
export function sandboxEnv(
  sandbox: TestSandbox,
  extra: Record<string, string | undefined> = {},
): Record<string, string | undefined> {
  return {
    REPORTS_API_BASE_URL: sandbox.reportsBaseUrl,
    REPORTS_API_KEY: CANARY.reports,
    ITEMS_API_BASE_URL: sandbox.itemsBaseUrl,
    ITEMS_API_KEY: CANARY.items,
    // One upstream exchange per request, as these tests count them: no retries, no breaker, no cache
    // (tests/unit/lib/upstream/policy and tests/http/server/resilience.test.ts turn them on).
    UPSTREAM_RETRIES: "0",
    UPSTREAM_BREAKER_FAILURES: "0",
    UPSTREAM_CACHE_REPORTS_TTL_MS: "0",
    UPSTREAM_CACHE_ITEMS_TTL_MS: "0",
    ...extra,
  };
}

/** The environment of a configured `npm start` on loopback `port`: the sandbox's keys, the store in `cwd`, the test admin. */
export function npmStartEnv(cwd: string, sandbox: TestSandbox, port: number): Record<string, string> {
  return {
    ...sandboxEnv(sandbox),
    HOST: "127.0.0.1",
    PORT: String(port),
    DATABASE_URL: path.join(cwd, "gatehouse.db"),
    SESSION_SECRET: TEST_SESSION_SECRET,
    ADMIN_EMAIL: TEST_ADMIN.email,
    ADMIN_PASSWORD: TEST_ADMIN.password,
  };
}

/**
 * `npm start`, as an operator runs it (lib/cli/start.mjs: its check, then next start with its preload), in `cwd` on
 * a free 127.0.0.1 port against the sandbox, with a store in `cwd`, the test session secret and admin, and `extra`
 * on top. Resolves once /api/health answers. Stop it with `server.stop()`.
 */
export async function npmStartGateway(
  cwd: string,
  sandbox: TestSandbox,
  extra: Record<string, string | undefined> = {},
): Promise<{ server: Spawned; url: string; port: number }> {
  assertBuilt();
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const server = npmStart(cwd, { ...npmStartEnv(cwd, sandbox, port), ...extra });
  await untilHealthy(url, server);
  return { server, url, port };
}

/**
 * The test's environment over the accounts defaults: a key the test names (even as undefined, to leave it
 * unset) wins. Returns the environment and the temporary folder holding the default store, if one was made.
 */
async function withAccounts(
  env: Record<string, string | undefined>,
): Promise<{ env: Record<string, string>; tempDir: string | null }> {
  let tempDir: string | null = null;
  const defaults: Record<string, string> = {
    SESSION_SECRET: TEST_SESSION_SECRET,
    ADMIN_EMAIL: TEST_ADMIN.email,
    ADMIN_PASSWORD: TEST_ADMIN.password,
  };
  if (!("DATABASE_URL" in env)) {
    tempDir = await mkdtemp(path.join(tmpdir(), "gatehouse-store-"));
    defaults.DATABASE_URL = path.join(tempDir, "gatehouse.db");
  }
  const merged: Record<string, string> = {};
  for (const [name, value] of Object.entries({ ...defaults, ...env })) if (value !== undefined) merged[name] = value;
  return { env: merged, tempDir };
}

/** The session cookie a response sets, as `name=value` ("" when it clears it), or undefined when it sets none. */
function sessionCookieFrom(headers: Headers): string | undefined {
  for (const line of headers.getSetCookie()) {
    const pair = line.split(";", 1)[0] ?? "";
    const name = pair.slice(0, pair.indexOf("="));
    if (SESSION_COOKIE.test(name)) return pair.slice(name.length + 1) === "" ? "" : pair;
  }
  return undefined;
}

/** `cookieHeader` without any session cookie, plus `session` (when non-empty). */
function withSessionCookie(cookieHeader: string | null, session: string): string {
  const others = (cookieHeader ?? "")
    .split(";")
    .map((part) => part.trim())
    .filter((part) => part !== "" && !SESSION_COOKIE.test(part.slice(0, part.indexOf("="))));
  return [...others, ...(session ? [session] : [])].join("; ");
}

const STATE_CHANGING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * Starts `next start` and resolves once /api/health answers. `port`: a port chosen beforehand (an identity
 * provider must know the portal's redirect URI before the portal starts); default a free one.
 */
export async function startGateway(
  testEnv: Record<string, string | undefined>,
  { port: chosenPort }: { port?: number } = {},
): Promise<GatewayProcess> {
  assertBuilt();
  const { env, tempDir } = await withAccounts(testEnv);
  const port = chosenPort ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  const server: Spawned = nextStart(ROOT, port, env);
  const recorded: RecordedResponse[] = [];

  const stop = async () => {
    await server.stop();
    if (tempDir) await rm(tempDir, { recursive: true, force: true });
  };

  try {
    await untilHealthy(url, server);
  } catch (error) {
    await stop();
    throw error;
  }

  const lines = () => server.lines();
  const logLines = (): LogLine[] => server.logLines() as LogLine[];

  async function request(pathname: string, init?: RequestInit): Promise<GatewayResponse> {
    const res = await fetch(url + pathname, { redirect: "manual", ...init });
    const text = await res.text();
    recorded.push({
      method: init?.method ?? "GET",
      path: pathname,
      status: res.status,
      headers: Object.fromEntries(res.headers),
      body: text,
    });
    let json: unknown;
    try {
      json = text === "" ? undefined : JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: res.status, headers: res.headers, text, json };
  }

  async function signInWith(credentials: Credentials): Promise<SignedInClient> {
    const send = () =>
      request("/api/auth/login", {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-CSRF": "1" },
        body: JSON.stringify(credentials),
      });
    // Sign-ins started together queue for the few password-hashing slots; on a loaded machine the server may
    // answer 503 server_busy with Retry-After. A client does as it says, and so does this fixture (signing in is
    // not what the calling test is about; tests of the hashing cap call the route themselves).
    let res = await send();
    for (let attempt = 0; attempt < 5 && res.status === 503 && res.json?.error?.code === "server_busy"; attempt++) {
      await sleep(Number(res.headers.get("retry-after") ?? "1") * 1000);
      res = await send();
    }
    const cookie = sessionCookieFrom(res.headers);
    if (res.status !== 200 || !cookie)
      throw new Error(`sign-in as ${credentials.email} failed: ${res.status} ${res.text}`);
    let session = cookie;
    return {
      user: res.json.data.user,
      cookie: () => session,
      async request(pathname, init = {}) {
        const headers = new Headers(init.headers);
        headers.set("Cookie", withSessionCookie(headers.get("Cookie"), session));
        if (STATE_CHANGING.has((init.method ?? "GET").toUpperCase()) && !headers.has("X-CSRF"))
          headers.set("X-CSRF", "1");
        const answer = await request(pathname, { ...init, headers });
        session = sessionCookieFrom(answer.headers) ?? session;
        return answer;
      },
    };
  }

  const roleUsers = new Map<Role, Promise<Credentials>>();
  let adminClient: Promise<SignedInClient> | undefined;

  /** A user of this role, created once through the admin API. */
  function credentialsFor(role: Role): Promise<Credentials> {
    if (role === "admin") return Promise.resolve(TEST_ADMIN);
    let pending = roleUsers.get(role);
    if (!pending) {
      pending = (async () => {
        adminClient ??= signInWith(TEST_ADMIN);
        const credentials = { email: `${role}@gatehouse.test`, password: TEST_USER_PASSWORD };
        const res = await (
          await adminClient
        ).request("/api/admin/users", {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ ...credentials, name: `Test ${role}`, role }),
        });
        if (res.status !== 201) throw new Error(`creating the ${role} test user failed: ${res.status} ${res.text}`);
        return credentials;
      })();
      roleUsers.set(role, pending);
    }
    return pending;
  }

  return {
    url,
    env,
    databaseUrl: env.DATABASE_URL ?? "",
    child: server.child,
    request,
    async signIn(who) {
      return signInWith(typeof who === "string" ? await credentialsFor(who) : who);
    },
    output: lines,
    logLines,
    async logLineFor(requestId) {
      for (let i = 0; i < 50; i++) {
        const line = logLines().find((l) => l.request_id === requestId && l.msg === "request");
        if (line) return line;
        await sleep(20);
      }
      throw new Error(`no log line for request ${requestId}`);
    },
    assertNoKeyLeaked() {
      for (const r of recorded) {
        assertNoCanary(r.body, `the body of ${r.method} ${r.path} (${r.status})`);
        assertNoCanary(JSON.stringify(r.headers), `the headers of ${r.method} ${r.path} (${r.status})`);
      }
      lines().forEach((line, i) => assertNoCanary(line, `output line ${i + 1} of the gateway`));
    },
    stop,
    async kill() {
      if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill("SIGKILL");
      await server.exited;
      if (tempDir) await rm(tempDir, { recursive: true, force: true });
    },
  };
}

/** Starts `next start` expecting it to refuse to start; resolves with its exit code and output. */
export async function startGatewayExpectingFailure(
  testEnv: Record<string, string | undefined>,
): Promise<{ code: number | null; output: string[] }> {
  assertBuilt();
  const { env, tempDir } = await withAccounts(testEnv);
  const server = nextStart(ROOT, await freePort(), env);
  const timer = setTimeout(() => server.child.kill("SIGKILL"), 60_000);
  const code = await server.exited;
  clearTimeout(timer);
  if (tempDir) await rm(tempDir, { recursive: true, force: true });
  return { code, output: server.lines() };
}
