// docs/http-api.md says what the server serves: its table of every route is the one scripts/http-api-routes.ts
// reads from the operations, and the hand-written tables below it name only routes that exist.
import { readFileSync } from "node:fs";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { operations } from "@/lib/api/operations";
import { routeTable } from "@/scripts/http-api-routes";
import { ROOT } from "@/tests/support/processes";

const doc = readFileSync(path.join(ROOT, "docs/http-api.md"), "utf8");
const served = new Set(Object.values(operations).map((operation) => `${operation.method} ${operation.path}`));

describe("docs/http-api.md", () => {
  it("lists every route as the code has it (regenerate with: npx tsx --conditions=react-server scripts/http-api-routes.ts)", () => {
    const block = /<!-- routes:begin -->\n([\s\S]*?)\n<!-- routes:end -->/.exec(doc);
    expect(block, "the table between <!-- routes:begin --> and <!-- routes:end -->").not.toBeNull();
    expect(block![1]).toBe(routeTable());
    expect(block![1]!.split("\n")).toHaveLength(served.size + 2);
  });

  it("describes only routes that exist in its other tables", () => {
    const described = [...doc.matchAll(/^\| `(GET|POST|PUT|PATCH|DELETE) (\/api\/[^`]*)` \|/gm)].map(
      (row) => `${row[1]} ${row[2]}`,
    );
    expect(described.length).toBeGreaterThan(served.size);
    expect(described.filter((route) => !served.has(route))).toEqual([]);
  });
});
