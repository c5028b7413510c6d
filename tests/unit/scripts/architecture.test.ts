// The floors hold: no file of a room imports a room above it or beside it (scripts/architecture.ts has the
// rooms and floors, dependency-cruiser reads the imports). A new import that breaks them fails here with the file,
// the file it imports and the rule named; and docs/architecture.md shows the rooms' imports as the code has them.
// (One reading of the imports serves both: it takes seconds.)
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import type { ICruiseResult } from "dependency-cruiser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { cruiseRooms, FLOORS, floorViolations, mermaid, roomOf, scriptViolations } from "@/scripts/architecture";

describe("the rooms and their floors", () => {
  let result: ICruiseResult;
  beforeAll(async () => {
    result = await cruiseRooms();
  });

  it("reads the imports of lib, app, components and the root entry points", () => {
    const edges = result.modules.flatMap((module) =>
      module.dependencies.map((dependency) => [module.source, dependency.resolved]),
    );
    expect(edges.length).toBeGreaterThan(500);
    expect(edges).toContainEqual(["proxy.ts", "lib/auth/edge.ts"]);
  });

  it("no import runs up a floor or sideways", () => {
    expect(floorViolations(result)).toEqual([]);
  });

  it("every file of lib, app and components belongs to a room", () => {
    const homeless = result.modules
      .map((module) => module.source)
      .filter((file) => /^(lib|app|components)\//.test(file) && roomOf(file) === null);
    expect(homeless).toEqual([]);
  });

  // The scripts (benchmarks, Lighthouse, budgets) run under tsx, outside vitest: a test helper they import must not
  // import vitest, or the script stops at start ("Vitest cannot be imported in a CommonJS module"), as
  // `npm run bench` once did when a describe-level Redis helper was added to tests/support/redis.ts.
  it("no script imports a test helper that imports vitest", () => {
    expect(result.modules.some((module) => module.source === "scripts/bench/against-floor.ts")).toBe(true);
    expect(scriptViolations(result)).toEqual([]);
  });

  it("docs/architecture.md shows the rooms' imports as the code has them (regenerate: npx tsx scripts/architecture.ts)", () => {
    const doc = readFileSync(path.resolve(__dirname, "../../../docs/architecture.md"), "utf8");
    const block = /<!-- rooms:begin -->\n([\s\S]*?)\n<!-- rooms:end -->/.exec(doc);
    expect(block, "the diagram between <!-- rooms:begin --> and <!-- rooms:end -->").not.toBeNull();
    expect(block![1]).toBe(mermaid(result));
  });
});

describe("an import that breaks the floors", () => {
  // A small tree of the same rooms, with one import of each kind (a type-only one, a dynamic one, a re-export),
  // and a script whose helper imports vitest.
  const files: Record<string, string> = {
    // baseUrl: without it, dependency-cruiser's resolver reads paths from the working directory, the repository.
    "tsconfig.json": JSON.stringify({ compilerOptions: { baseUrl: ".", paths: { "@/*": ["./*"] } } }),
    "lib/db/index.ts": 'import { users } from "@/lib/auth/users";\nexport const all = users;\n',
    "lib/auth/users.ts": "export const users = [];\n",
    "lib/upstream/http.ts": 'import type { Token } from "@/lib/auth/csrf";\nexport type Header = Token;\n',
    "lib/auth/csrf.ts": "export type Token = string;\n",
    "components/ui/badge.tsx": 'export const config = () => import("@/lib/config");\n',
    "lib/config/index.ts": "export const port = 1;\n",
    "lib/api/route.ts": 'export * from "../auth/csrf";\n',
    "app/page.tsx": "export default function Page() {\n  return null;\n}\n",
    "proxy.ts": "export {};\n",
    "instrumentation.ts": "export {};\n",
    "scripts/bench.ts": 'import { redis } from "@/tests/support/redis";\nexport const url = redis;\n',
    "tests/support/redis.ts": 'import { beforeAll } from "vitest";\nexport const redis = beforeAll;\n',
    "node_modules/vitest/package.json": JSON.stringify({ name: "vitest", main: "index.js" }),
    "node_modules/vitest/index.js": "export const beforeAll = () => {};\n",
  };
  let dir: string;
  let result: ICruiseResult;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "gatehouse-floors-"));
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      writeFileSync(path.join(dir, file), text);
    }
    result = await cruiseRooms(dir);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("fails on one up a floor, one sideways and one outside a room's `only`, and on nothing else", () => {
    expect(floorViolations(result)).toEqual([
      expect.stringMatching(/^components\/ui\/badge\.tsx imports lib\/config\/index\.ts: .*may import only/),
      expect.stringMatching(/^lib\/db\/index\.ts imports lib\/auth\/users\.ts: .*a floor above it/),
      expect.stringMatching(/^lib\/upstream\/http\.ts imports lib\/auth\/csrf\.ts: .*its own floor/),
    ]);
    expect(FLOORS.flat().map((room) => room.name)).toContain("contract");
  });

  it("fails on a script that imports a test helper that imports vitest", () => {
    expect(scriptViolations(result)).toEqual([
      expect.stringMatching(
        /^scripts\/bench\.ts imports node_modules\/vitest\/index\.js \(through .*redis\.ts.*\): .*tsx/,
      ),
    ]);
  });
});
