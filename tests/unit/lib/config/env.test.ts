// Configuration rules, checked on parseEnv directly (it takes the environment as an argument).
import { describe, expect, it } from "vitest";

import { ConfigError, parseEnv } from "@/lib/config/env";

const A = { REPORTS_API_BASE_URL: "https://reports.example.com/seo", REPORTS_API_KEY: "reports-secret-key-123" };
const B = { ITEMS_API_BASE_URL: "https://items.example.com/market/", ITEMS_API_KEY: "items-secret-key-456" };

function problemsOf(env: Record<string, string | undefined>): ConfigError {
  try {
    parseEnv(env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error("expected a ConfigError");
}

describe("parseEnv", () => {
  it("reads both areas, keeps the base URL's path prefix and drops a trailing slash", () => {
    const config = parseEnv({ ...A, ...B });
    expect(config.upstream.reports).toEqual({ baseUrl: "https://reports.example.com/seo", apiKey: A.REPORTS_API_KEY });
    expect(config.upstream.items).toEqual({
      baseUrl: "https://items.example.com/market",
      apiKey: B.ITEMS_API_KEY,
      keyLocation: { kind: "query-and-form" },
    });
    expect(config.upstream.timeoutMs).toBe(10_000);
    expect(config.sandboxPort).toBe(4010);
  });

  it("leaves an unconfigured area null, and treats empty values as unset", () => {
    expect(parseEnv({ ...B, REPORTS_API_BASE_URL: "", REPORTS_API_KEY: " " }).upstream.reports).toBeNull();
    const none = parseEnv({});
    expect(none.upstream.reports).toBeNull();
    expect(none.upstream.items).toBeNull();
  });

  it("refuses a half-configured area, naming the missing variable", () => {
    const error = problemsOf({ REPORTS_API_BASE_URL: A.REPORTS_API_BASE_URL });
    expect(error.problems).toEqual([{ variable: "REPORTS_API_KEY", problem: expect.stringContaining("missing") }]);
    const other = problemsOf({ ITEMS_API_KEY: B.ITEMS_API_KEY });
    expect(other.problems[0]?.variable).toBe("ITEMS_API_BASE_URL");
  });

  it("names a bad key's variable without ever quoting its value", () => {
    const badKey = "has a space\n";
    const error = problemsOf({ ...A, REPORTS_API_KEY: `secret ${badKey}` });
    expect(error.problems[0]?.variable).toBe("REPORTS_API_KEY");
    expect(error.message).toContain("REPORTS_API_KEY");
    expect(error.message).not.toContain("secret");
    const short = problemsOf({ ...B, ITEMS_API_KEY: "abc" });
    expect(short.message).toContain("ITEMS_API_KEY: is too short");
    expect(short.message).not.toContain("abc");
  });

  it("refuses base URLs that are not absolute http(s), carry credentials or a query", () => {
    for (const [url, words] of [
      ["reports.example.com", "absolute"],
      ["ftp://reports.example.com", "http"],
      ["https://user:pw@reports.example.com", "user name"],
      ["https://reports.example.com/?x=1", "query"],
    ] as const) {
      const error = problemsOf({ ...A, REPORTS_API_BASE_URL: url });
      expect(error.problems[0]?.variable).toBe("REPORTS_API_BASE_URL");
      expect(error.problems[0]?.problem).toContain(words);
    }
  });

  it("reads the area B key location", () => {
    expect(parseEnv({ ...B, ITEMS_API_KEY_LOCATION: "query" }).upstream.items?.keyLocation).toEqual({ kind: "query" });
    expect(parseEnv({ ...B, ITEMS_API_KEY_LOCATION: "header:X-Api-Key" }).upstream.items?.keyLocation).toEqual({
      kind: "header",
      name: "X-Api-Key",
    });
    expect(problemsOf({ ...B, ITEMS_API_KEY_LOCATION: "cookie" }).problems[0]).toEqual({
      variable: "ITEMS_API_KEY_LOCATION",
      problem: expect.stringContaining("query-and-form"),
      value: "cookie",
    });
  });

  it("validates UPSTREAM_TIMEOUT_MS and SANDBOX_PORT", () => {
    expect(parseEnv({ ...A, UPSTREAM_TIMEOUT_MS: "2500" }).upstream.timeoutMs).toBe(2500);
    expect(problemsOf({ ...A, UPSTREAM_TIMEOUT_MS: "10s" }).problems[0]?.variable).toBe("UPSTREAM_TIMEOUT_MS");
    expect(problemsOf({ ...A, UPSTREAM_TIMEOUT_MS: "5" }).problems[0]?.problem).toContain("at least 100");
    expect(parseEnv({ SANDBOX_PORT: "0" }).sandboxPort).toBe(0);
    expect(problemsOf({ SANDBOX_PORT: "70000" }).problems[0]?.variable).toBe("SANDBOX_PORT");
  });

  it("lists every problem at once", () => {
    const error = problemsOf({ REPORTS_API_BASE_URL: "nope", REPORTS_API_KEY: "x", UPSTREAM_TIMEOUT_MS: "soon" });
    expect(error.problems.map((p) => p.variable)).toEqual([
      "REPORTS_API_BASE_URL",
      "REPORTS_API_KEY",
      "UPSTREAM_TIMEOUT_MS",
    ]);
  });
});
