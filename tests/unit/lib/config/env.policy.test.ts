// The resilience settings in the environment: defaults from the issue, 0 to turn a policy off, and a message
// naming the variable for a value Gatehouse cannot use.
import { describe, expect, it } from "vitest";

import { ConfigError, DEFAULT_SHUTDOWN_TIMEOUT_MS, DEFAULT_UPSTREAM_POLICY, parseEnv } from "@/lib/config/env";
import { DEFAULT_RESILIENCE, resilienceSettingsFrom } from "@/lib/upstream/policy";

function problemsOf(env: Record<string, string>): { variable: string; problem: string }[] {
  try {
    parseEnv(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error("expected a ConfigError");
}

describe("resilience settings", () => {
  it("default to the issue's figures", () => {
    const config = parseEnv({});
    expect(config.upstream.policy).toEqual({
      retries: 2,
      breakerFailures: 5,
      breakerOpenMs: 30_000,
      cacheTtlMs: { reports: 15_000, items: 60_000 },
      cacheMaxEntries: 1000,
      cacheMaxBytes: 32 * 1024 * 1024,
    });
    expect(config.upstream.policy).toEqual(DEFAULT_UPSTREAM_POLICY);
    expect(config.shutdownTimeoutMs).toBe(DEFAULT_SHUTDOWN_TIMEOUT_MS);
    expect(DEFAULT_SHUTDOWN_TIMEOUT_MS).toBe(10_000);
  });

  it("read every variable", () => {
    const config = parseEnv({
      UPSTREAM_RETRIES: "1",
      UPSTREAM_BREAKER_FAILURES: "3",
      UPSTREAM_BREAKER_OPEN_MS: "5000",
      UPSTREAM_CACHE_REPORTS_TTL_MS: "2000",
      UPSTREAM_CACHE_ITEMS_TTL_MS: "120000",
      UPSTREAM_CACHE_MAX_ENTRIES: "50",
      UPSTREAM_CACHE_MAX_MB: "4",
      SHUTDOWN_TIMEOUT_MS: "3000",
    });
    expect(config.upstream.policy).toEqual({
      retries: 1,
      breakerFailures: 3,
      breakerOpenMs: 5000,
      cacheTtlMs: { reports: 2000, items: 120_000 },
      cacheMaxEntries: 50,
      cacheMaxBytes: 4 * 1024 * 1024,
    });
    expect(config.shutdownTimeoutMs).toBe(3000);
  });

  it("become the policies' settings: the defaults are the policies' own defaults", () => {
    expect(resilienceSettingsFrom(parseEnv({}).upstream.policy)).toEqual(DEFAULT_RESILIENCE);
    const settings = resilienceSettingsFrom(
      parseEnv({ UPSTREAM_RETRIES: "1", UPSTREAM_BREAKER_OPEN_MS: "2000", UPSTREAM_CACHE_ITEMS_TTL_MS: "0" }).upstream
        .policy,
    );
    expect(settings).toMatchObject({
      retry: { maxRetries: 1 },
      breaker: { openMs: 2000 },
      cache: { ttlMs: { reports: 15_000, items: 0 } },
    });
  });

  it("0 turns retries, the breaker and each area's cache off", () => {
    const config = parseEnv({
      UPSTREAM_RETRIES: "0",
      UPSTREAM_BREAKER_FAILURES: "0",
      UPSTREAM_CACHE_REPORTS_TTL_MS: "0",
      UPSTREAM_CACHE_ITEMS_TTL_MS: "0",
    });
    expect(config.upstream.policy).toMatchObject({
      retries: 0,
      breakerFailures: 0,
      cacheTtlMs: { reports: 0, items: 0 },
    });
  });

  it("refuses what it cannot use, naming the variable and the bounds", () => {
    expect(
      problemsOf({
        UPSTREAM_RETRIES: "3",
        UPSTREAM_BREAKER_FAILURES: "-1",
        UPSTREAM_BREAKER_OPEN_MS: "500",
        UPSTREAM_CACHE_REPORTS_TTL_MS: "15s",
        UPSTREAM_CACHE_MAX_ENTRIES: "0",
        SHUTDOWN_TIMEOUT_MS: "999999",
      }),
    ).toEqual([
      { variable: "UPSTREAM_RETRIES", problem: "must be at most 2 retries", value: "3" },
      {
        variable: "UPSTREAM_BREAKER_FAILURES",
        problem: "must be a whole number of failures (0 turns the breaker off)",
        value: "-1",
      },
      { variable: "UPSTREAM_BREAKER_OPEN_MS", problem: "must be at least 1000 milliseconds", value: "500" },
      {
        variable: "UPSTREAM_CACHE_REPORTS_TTL_MS",
        problem: "must be a whole number of milliseconds (0 turns the cache off)",
        value: "15s",
      },
      { variable: "UPSTREAM_CACHE_MAX_ENTRIES", problem: "must be at least 10 entries", value: "0" },
      { variable: "SHUTDOWN_TIMEOUT_MS", problem: "must be at most 120000 milliseconds", value: "999999" },
    ]);
  });
});
