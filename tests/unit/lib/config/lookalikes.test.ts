// Names that look like Gatehouse's settings but are not: typos, another letter case, and names of our families.
import { describe, expect, it } from "vitest";

import { editDistance, findLookalikes } from "@/lib/config/lookalikes";

describe("findLookalikes", () => {
  it.each([
    ["REPORTS_API_BASEURL", "REPORTS_API_BASE_URL"],
    ["ITEMS_APIKEY", "ITEMS_API_KEY"],
    ["ITEMS_API_BASE_ULR", "ITEMS_API_BASE_URL"],
    ["DATABSE_URL", "DATABASE_URL"],
    ["database_url", "DATABASE_URL"],
    ["SESION_SECRET", "SESSION_SECRET"],
    ["PUBLIC_ORGIN", "PUBLIC_ORIGIN"],
    ["TRUST_PROXYS", "TRUST_PROXY"],
    ["port", "PORT"],
  ])("%s is a typo of %s", (name, suggestion) => {
    expect(findLookalikes([name])).toEqual([{ name, suggestion, typo: true }]);
  });

  it.each([
    ["REPORTS_API_TOKEN", "REPORTS_API_KEY"],
    ["REPORTS_API_URL", "REPORTS_API_BASE_URL"],
    ["ITEMS_URL", "ITEMS_API_BASE_URL"],
    ["UPSTREAM_CACHE_TTL", "UPSTREAM_CACHE_ITEMS_TTL_MS"],
    ["GATEHOUSE_MODE", "GATEHOUSE_DEMO"],
    ["PURCHASE_BULK_LIMIT", "PURCHASE_BULK_LIMIT_PER_HOUR"],
  ])("%s is of our family; the closest name is %s", (name, suggestion) => {
    expect(findLookalikes([name])).toEqual([{ name, suggestion, typo: false }]);
  });

  it("leaves our own names and the usual environment alone", () => {
    const usual = [
      "PATH",
      "HOME",
      "HOSTNAME",
      "PWD",
      "SHELL",
      "USER",
      "LANG",
      "TERM",
      "NODE_ENV",
      "NODE_OPTIONS",
      "TZ",
      "HTTP_PROXY",
      "HTTPS_PROXY",
      "NO_PROXY",
      "SESSION_MANAGER",
      "XDG_SESSION_ID",
      "CI",
      "npm_config_cache",
      "npm_lifecycle_event",
      "NEXT_RUNTIME",
      "E2E_PORT",
      "E2E_SANDBOX_PORT",
      "CHROMIUM_PATH",
      "TEST_POSTGRES_URL",
      "PG_BIN",
      "VITEST_POOL_ID",
    ];
    const ours = [
      "REPORTS_API_BASE_URL",
      "ITEMS_API_KEY",
      "DATABASE_URL",
      "SESSION_SECRET",
      "HOST",
      "PORT",
      "GATEHOUSE_DEMO",
      "ALLOWED_HOSTS",
    ];
    expect(findLookalikes([...usual, ...ours])).toEqual([]);
  });

  it("counts a swap of neighbours as one edit", () => {
    expect(editDistance("DATABSAE_URL", "DATABASE_URL")).toBe(1);
    expect(editDistance("abc", "abc")).toBe(0);
    expect(editDistance("", "abc")).toBe(3);
  });
});
