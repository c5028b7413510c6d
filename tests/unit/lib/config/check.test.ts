// The start-up check on an environment passed in: every problem at once, one line each, look-alikes, the store's
// URL, demo mode's flag, and the safety review. The same check on a real process: tests/http/server/start.test.ts.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { checkConfiguration } from "@/lib/config/check";
import { formatProblem, NO_UPSTREAM } from "@/lib/config/env";
import { parseDatabaseUrl, readDatabaseUrl, storeTarget } from "@/lib/config/store";

const SECRET = "Q8x2kLr0v9ZpA1nB7cD3eF5gH6jK4mN0pQ2rS8tU1vW=";
const HASH_KEY = "r7Hq0Lw3Zt9Xy2Vb5Nc8Md1Kf4Jg6Ph0Ss3Aa7Ee9Uu=";
const AREAS = {
  REPORTS_API_BASE_URL: "https://reports.example.com/seo",
  REPORTS_API_KEY: "reports-key-value-123",
  ITEMS_API_BASE_URL: "https://items.example.com/market",
  ITEMS_API_KEY: "items-key-value-456",
};
const GOOD = {
  ...AREAS,
  SESSION_SECRET: SECRET,
  PURCHASE_CODE_HASH_KEY: HASH_KEY,
  PUBLIC_ORIGIN: "https://portal.example.com",
  TRUST_PROXY: "1",
};

const lines = (env: Record<string, string | undefined>) => checkConfiguration(env).problems.map(formatProblem);

describe("a configured start", () => {
  it("passes a complete, safe configuration with nothing to say", () => {
    expect(checkConfiguration(GOOD)).toEqual({ mode: "configured", problems: [], warnings: [], notes: [] });
  });

  it("is refused without any upstream, naming the variables and pointing at npm run demo", () => {
    expect(lines({ SESSION_SECRET: SECRET })).toEqual([NO_UPSTREAM]);
    expect(NO_UPSTREAM).toContain("REPORTS_API_BASE_URL and REPORTS_API_KEY");
    expect(NO_UPSTREAM).toContain("ITEMS_API_BASE_URL and ITEMS_API_KEY");
    expect(NO_UPSTREAM).toContain("npm run demo");
  });

  it("refuses misspelled names it would ignore, with the name it means", () => {
    expect(
      lines({
        SESSION_SECRET: SECRET,
        REPORTS_API_BASEURL: AREAS.REPORTS_API_BASE_URL,
        REPORTS_APIKEY: "k",
        ITEMS_API_BASE_URL: AREAS.ITEMS_API_BASE_URL,
        ITEMS_APIKEY: "k",
      }),
    ).toEqual([
      "REPORTS_API_BASEURL: is not a Gatehouse setting, so it would be ignored; did you mean REPORTS_API_BASE_URL?",
      "REPORTS_APIKEY: is not a Gatehouse setting, so it would be ignored; did you mean REPORTS_API_KEY?",
      "ITEMS_APIKEY: is not a Gatehouse setting, so it would be ignored; did you mean ITEMS_API_KEY?",
      "ITEMS_API_KEY: is missing while ITEMS_API_BASE_URL is set; set both, neither to leave this area out, or set GATEHOUSE_KEK to keep the key in the portal (Upstream connections) (ITEMS_APIKEY is set: did you mean ITEMS_API_KEY?)",
    ]);
    expect(lines({ ...GOOD, DATABSE_URL: "postgres://gatehouse@db/gatehouse" })).toEqual([
      "DATABSE_URL: is not a Gatehouse setting, so it would be ignored; did you mean DATABASE_URL?",
    ]);
  });

  it("refuses a variable it no longer reads, saying what to do instead, in demo mode too", () => {
    const retired =
      "WEBHOOK_RETRY_SPEEDUP: is no longer read: it only made tests' webhook retries quicker, and deliveries keep their fixed schedule (docs/http-api.md#webhooks); unset it";
    expect(lines({ ...GOOD, WEBHOOK_RETRY_SPEEDUP: "1" })).toEqual([retired]);
    expect(lines({ GATEHOUSE_DEMO: "1", WEBHOOK_RETRY_SPEEDUP: "1000" })).toEqual([retired]);
  });

  it("refuses the sandbox's old variables, naming the flags of npm run sandbox that replaced them", () => {
    expect(lines({ ...GOOD, SANDBOX_CONTROL: "1" })).toEqual([
      "SANDBOX_CONTROL: is no longer read: the sandbox's control API is a flag of its command, npm run sandbox -- --control; unset it",
    ]);
    expect(lines({ GATEHOUSE_DEMO: "1", SANDBOX_DATA_DIR: "/tmp/sandbox" })).toEqual([
      "SANDBOX_DATA_DIR: is no longer read: the sandbox's folder is a flag of its command, npm run sandbox -- --data-dir DIR; unset it",
    ]);
  });

  it("only warns about a look-alike whose real name is set too, or one that is merely of our family", () => {
    const check = checkConfiguration({ ...GOOD, REPORTS_APIKEY: "old", ITEMS_API_TOKEN: "t" });
    expect(check.problems).toEqual([]);
    expect(check.warnings).toEqual([
      "REPORTS_APIKEY is not a Gatehouse setting and is ignored; did you mean REPORTS_API_KEY?",
      "ITEMS_API_TOKEN is not a Gatehouse setting and is ignored; did you mean ITEMS_API_KEY?",
    ]);
    // An empty look-alike is nothing.
    expect(checkConfiguration({ ...GOOD, DATABSE_URL: "" }).problems).toEqual([]);
  });

  it("prints every problem at once, one line each, quoting values but never a secret", () => {
    const found = lines({
      REPORTS_API_BASE_URL: "not-a-url",
      REPORTS_API_KEY: "key with spaces in it",
      ITEMS_API_BASE_URL: "ftp://x",
      ITEMS_API_KEY: "items-key-value-456",
      ITEMS_API_KEY_LOCATION: "cookie",
      UPSTREAM_TIMEOUT_MS: "soon",
      SESSION_SECRET: "short",
      TRUST_PROXY: "maybe",
      PUBLIC_ORIGIN: "portal.example.com",
      ALLOWED_HOSTS: "portal.example.com, not a host",
      ADMIN_EMAIL: "root",
      ADMIN_PASSWORD: "tiny",
      DATABASE_URL: "postgres//gatehouse:pa55word@db:5432/gatehouse",
      GATEHOUSE_DEMO: "yes",
    });
    expect(found).toEqual([
      'GATEHOUSE_DEMO: "yes" must be 1 (demo mode, as npm run demo sets it) or unset',
      'REPORTS_API_BASE_URL: "not-a-url" must be an absolute http:// or https:// URL',
      "REPORTS_API_KEY: must be printable ASCII without spaces or line breaks (check for a pasted newline or quotes)",
      'ITEMS_API_BASE_URL: "ftp://x" must start with http:// or https://',
      'ITEMS_API_KEY_LOCATION: "cookie" must be "query-and-form" (default), "query" or "header:<Header-Name>"',
      'UPSTREAM_TIMEOUT_MS: "soon" must be a whole number of milliseconds',
      'TRUST_PROXY: "maybe" must be 0 (no proxy), 1 (one reverse proxy in front), a number of proxies, true or false',
      'PUBLIC_ORIGIN: "portal.example.com" must be the portal\'s origin, such as https://portal.example.com (http or https, no path, query or credentials)',
      'ALLOWED_HOSTS: "portal.example.com, not a host" must be host names separated by commas, each with an optional port (portal.example.com, 10.0.0.5:3000)',
      'ADMIN_EMAIL: "root" must be an address such as name@example.com',
      "ADMIN_PASSWORD: must be at least 12 characters",
      "SESSION_SECRET: the secret has 5 characters; each secret needs at least 32 (generate one with: openssl rand -base64 32)",
      "DATABASE_URL: looks like a PostgreSQL URL with a broken scheme; write it as postgres://user:password@host:5432/database",
    ]);
    const text = found.join("\n");
    for (const secret of ["key with spaces", "short", "tiny", "pa55word"]) expect(text).not.toContain(secret);
  });

  it("refuses a DATABASE_URL that is neither a postgres:// URL nor a file path", () => {
    for (const [url, words] of [
      ["postgres//gatehouse@127.0.0.1:5432/gatehouse", "broken scheme"],
      ["postgresql:/gatehouse@db/gatehouse", "broken scheme"],
      ["postgres://user:p@ss#word@db/gatehouse", "percent-encoded"],
      ["mysql://db/gatehouse", 'unsupported scheme "mysql:"'],
      ["sqlite:./x.db", 'unsupported scheme "sqlite:"'],
      ["gatehouse@db:5432/gatehouse", "neither a postgres:// URL nor a file path"],
      ["localhost//gatehouse", "neither a postgres:// URL nor a file path"],
    ] as const) {
      const read = readDatabaseUrl(url);
      expect("problem" in read && read.problem, url).toContain(words);
      expect(lines({ ...GOOD, DATABASE_URL: url }), url).toEqual([expect.stringMatching(/^DATABASE_URL: /)]);
      expect(lines({ ...GOOD, DATABASE_URL: url }).join(""), url).not.toContain(url);
    }
    for (const url of [
      "./data/gatehouse.db",
      "/var/lib/gatehouse/g.db",
      "file:./x.db",
      "postgres://gatehouse:p%40ss@db:5432/gatehouse",
      "postgresql:///gatehouse?host=/run/postgresql",
    ]) {
      expect(readDatabaseUrl(url), url).toHaveProperty("target");
    }
  });
});

describe("the safety review", () => {
  it("refuses secrets and a first admin's password anyone could guess", () => {
    expect(lines({ ...GOOD, SESSION_SECRET: "a".repeat(40) })).toEqual([
      "SESSION_SECRET: the secret is a repeated or patterned value anyone could guess (about 0 bits); generate one with: openssl rand -base64 32",
    ]);
    expect(lines({ ...GOOD, SESSION_SECRET: `${SECRET},${"s3cret-".repeat(6)}` })).toEqual([
      expect.stringMatching(/^SESSION_SECRET: entry 2 of 2 is a repeated or patterned value/),
    ]);
    expect(lines({ ...GOOD, PURCHASE_CODE_HASH_KEY: "abcdefghijklmnopqrstuvwxyz0123456789" })).toEqual([
      expect.stringMatching(/^PURCHASE_CODE_HASH_KEY: is a repeated or patterned value/),
    ]);
    // The password policy (lib/auth/password.ts) judges ADMIN_PASSWORD, as it does every password.
    expect(lines({ ...GOOD, ADMIN_EMAIL: "ops@example.com", ADMIN_PASSWORD: "aaaaaaaaaaaaaaaa" })).toEqual([
      expect.stringMatching(/^ADMIN_PASSWORD: is too easy to guess/),
    ]);
    expect(lines({ ...GOOD, ADMIN_EMAIL: "ops@example.com", ADMIN_PASSWORD: "summer2026summer" })).toEqual([
      expect.stringMatching(/^ADMIN_PASSWORD: is too easy to guess/),
    ]);
    expect(lines({ ...GOOD, ADMIN_EMAIL: "ops@example.com", ADMIN_PASSWORD: "gatehouse-demo" })).toEqual([
      expect.stringMatching(/^ADMIN_PASSWORD: is too easy to guess/),
    ]);
  });

  it("warns about each missing or weak production setting, one line each", () => {
    const bare = checkConfiguration({
      ...AREAS,
      SESSION_SECRET: SECRET,
      ADMIN_EMAIL: "ops@example.com",
      ADMIN_PASSWORD: "plum-orbit-velvet-harbor",
    });
    expect(bare.problems).toEqual([]);
    expect(bare.warnings).toEqual([
      expect.stringMatching(/^PURCHASE_CODE_HASH_KEY is not set: /),
      expect.stringMatching(
        /^PUBLIC_ORIGIN is not set: the session cookie is not Secure, no HSTS is sent, every Host name is served/,
      ),
    ]);
    expect(checkConfiguration({ ...GOOD, PUBLIC_ORIGIN: "http://portal.example.com" }).warnings).toEqual([
      expect.stringMatching(/^PUBLIC_ORIGIN is http:\/\/portal\.example\.com, plain http/),
    ]);
    // Plain http on a loopback name is a local trial, not a deployment.
    expect(
      checkConfiguration({ ...GOOD, PUBLIC_ORIGIN: "http://localhost:3000", TRUST_PROXY: undefined }).warnings,
    ).toEqual([]);
    expect(checkConfiguration({ ...GOOD, TRUST_PROXY: undefined }).warnings).toEqual([
      expect.stringMatching(/^TRUST_PROXY is not set, but PUBLIC_ORIGIN is https/),
    ]);
    expect(
      checkConfiguration({ ...GOOD, SESSION_SECRET: "test-session-secret-0123456789-abcdefghij" }).warnings,
    ).toEqual([expect.stringMatching(/^SESSION_SECRET: the secret looks weak/)]);
    // No purchase checks without the item API: its hash key does not matter.
    const { ITEMS_API_BASE_URL: _u, ITEMS_API_KEY: _k, ...reportsOnly } = GOOD;
    expect(checkConfiguration({ ...reportsOnly, PURCHASE_CODE_HASH_KEY: undefined }).warnings).toEqual([]);
    // Webhooks to private addresses are for development and tests: a deployment that allows them is told so.
    expect(checkConfiguration({ ...GOOD, WEBHOOK_ALLOW_PRIVATE: "1" }).warnings).toEqual([
      expect.stringMatching(
        /^WEBHOOK_ALLOW_PRIVATE=1: webhooks may go over plain http and to loopback, private and cloud-metadata addresses/,
      ),
    ]);
    expect(checkConfiguration({ ...GOOD, WEBHOOK_ALLOW_PRIVATE: "0" }).warnings).toEqual([]);
  });
});

describe("demo mode (GATEHOUSE_DEMO=1)", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "gatehouse-check-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("is what GATEHOUSE_DEMO=1 asks for (npm start refuses that itself: lib/cli/start-check.ts)", () => {
    expect(checkConfiguration({ GATEHOUSE_DEMO: "1", DEMO_DATA_DIR: dir })).toEqual({
      mode: "demo",
      problems: [],
      warnings: [],
      notes: [],
    });
  });

  it("needs nothing, and says which configured settings it ignores", () => {
    const check = checkConfiguration({
      GATEHOUSE_DEMO: "1",
      DEMO_DATA_DIR: dir,
      ...GOOD,
      DATABASE_URL: "postgres//broken",
      ADMIN_PASSWORD: "aaaaaaaaaaaaaaaa",
    });
    expect(check.problems).toEqual([]);
    expect(check.warnings).toEqual([]);
    expect(check.notes).toEqual([
      "Demo mode ignores REPORTS_API_BASE_URL, REPORTS_API_KEY, ITEMS_API_BASE_URL, ITEMS_API_KEY, DATABASE_URL, SESSION_SECRET, ADMIN_PASSWORD, PURCHASE_CODE_HASH_KEY, PUBLIC_ORIGIN, TRUST_PROXY: it keeps its own store, secret and accounts.",
    ]);
  });

  it("keeps its store in its own folder, whatever DATABASE_URL says", () => {
    expect(storeTarget({ GATEHOUSE_DEMO: "1", DATABASE_URL: "postgres://prod/gatehouse" }, "/srv/g")).toEqual({
      dialect: "sqlite",
      path: "/srv/g/data/demo/gatehouse.db",
    });
    expect(storeTarget({ GATEHOUSE_DEMO: "1", DEMO_DATA_DIR: "/tmp/d" }, "/srv/g")).toEqual({
      dialect: "sqlite",
      path: "/tmp/d/gatehouse.db",
    });
    expect(storeTarget({}, "/srv/g")).toEqual(parseDatabaseUrl(undefined, "/srv/g"));
    expect(storeTarget({}, "/srv/g")).toEqual({ dialect: "sqlite", path: "/srv/g/data/gatehouse.db" });
  });
});
