// The HTTP server's timeouts as the environment sets them: defaults, bounds, and the one rule between two of them.
// The server honouring them is proven over real HTTP in tests/http/server/slow-clients.test.ts.
import { describe, expect, it } from "vitest";

import { checkConfiguration } from "@/lib/config/check";
import { DEFAULT_HTTP_SERVER, parseHttpServerSettings } from "@/lib/config/http-server";

describe("HTTP_*_TIMEOUT_MS", () => {
  it("default to seconds, not Node's minutes", () => {
    expect(parseHttpServerSettings({})).toEqual({ settings: DEFAULT_HTTP_SERVER, problems: [] });
    expect(DEFAULT_HTTP_SERVER).toEqual({
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      keepAliveTimeoutMs: 5_000,
    });
    expect(
      parseHttpServerSettings({
        HTTP_HEADERS_TIMEOUT_MS: "2000",
        HTTP_REQUEST_TIMEOUT_MS: " 4000 ",
        HTTP_KEEP_ALIVE_TIMEOUT_MS: "65000",
      }).settings,
    ).toEqual({
      headersTimeoutMs: 2000,
      requestTimeoutMs: 4000,
      keepAliveTimeoutMs: 65_000,
    });
  });

  it("refuse a value that is not a whole number of milliseconds within bounds, naming the variable", () => {
    const { problems } = parseHttpServerSettings({
      HTTP_HEADERS_TIMEOUT_MS: "10s",
      HTTP_REQUEST_TIMEOUT_MS: "0",
      HTTP_KEEP_ALIVE_TIMEOUT_MS: "999999",
    });
    expect(problems).toEqual([
      { variable: "HTTP_HEADERS_TIMEOUT_MS", problem: "must be a whole number of milliseconds", value: "10s" },
      { variable: "HTTP_REQUEST_TIMEOUT_MS", problem: "must be at least 1000 milliseconds", value: "0" },
      { variable: "HTTP_KEEP_ALIVE_TIMEOUT_MS", problem: "must be at most 600000 milliseconds", value: "999999" },
    ]);
  });

  it("refuse headers that may take longer than the whole request, and the start-up check says so", () => {
    const { problems } = parseHttpServerSettings({
      HTTP_HEADERS_TIMEOUT_MS: "20000",
      HTTP_REQUEST_TIMEOUT_MS: "10000",
    });
    expect(problems.map((p) => p.variable)).toEqual(["HTTP_HEADERS_TIMEOUT_MS"]);
    expect(problems[0]!.problem).toMatch(/HTTP_REQUEST_TIMEOUT_MS \(10000 ms\)/);
    const check = checkConfiguration({ GATEHOUSE_DEMO: "1", HTTP_REQUEST_TIMEOUT_MS: "soon" });
    expect(check.problems.map((p) => p.variable)).toContain("HTTP_REQUEST_TIMEOUT_MS");
  });
});
