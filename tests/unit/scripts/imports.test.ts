// The scripts (benchmarks, Lighthouse, budgets) run under tsx, outside vitest: a test helper they import must not
// import vitest, or the script stops at start ("Vitest cannot be imported in a CommonJS module"), as
// `npm run bench` once did when a describe-level Redis helper was added to tests/support/redis.ts.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

import { describe, expect, it } from "vitest";

const ROOT = process.cwd();

function scriptFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? scriptFiles(path.join(dir, entry.name))
      : entry.name.endsWith(".ts")
        ? [path.join(dir, entry.name)]
        : [],
  );
}

/** The test helpers (tests/support/**) a file imports, directly or through other helpers. */
function supportImports(file: string, seen = new Set<string>()): Set<string> {
  const source = readFileSync(file, "utf8");
  for (const [, spec] of source.matchAll(/from "([^"]+)"/g)) {
    let target: string | null = null;
    if (spec!.startsWith("@/tests/support/")) target = path.join(ROOT, `${spec!.slice(2)}.ts`);
    else if (spec!.startsWith(".") && file.includes(`${path.sep}tests${path.sep}support${path.sep}`))
      target = `${path.resolve(path.dirname(file), spec!)}.ts`;
    if (target && !seen.has(target)) {
      seen.add(target);
      supportImports(target, seen);
    }
  }
  return seen;
}

describe("scripts", () => {
  it("import no test helper that imports vitest", () => {
    const offenders = scriptFiles(path.join(ROOT, "scripts")).flatMap((script) =>
      [...supportImports(script)]
        .filter((helper) => /from "vitest"/.test(readFileSync(helper, "utf8")))
        .map((helper) => `${path.relative(ROOT, script)} → ${path.relative(ROOT, helper)}`),
    );
    expect(offenders).toEqual([]);
  });
});
