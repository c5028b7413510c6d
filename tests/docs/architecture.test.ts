// docs/architecture.md says what the code is: every module of lib/ has a test at its mirrored path or a row naming
// tests that exist. (Its diagram of the rooms is checked by tests/unit/scripts/architecture.test.ts, beside the
// floors: one reading of the imports by dependency-cruiser serves both.)
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { ROOT } from "@/tests/support/processes";

const doc = readFileSync(path.join(ROOT, "docs/architecture.md"), "utf8");

function modules(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) return modules(relative);
    return /\.(ts|tsx)$/.test(entry.name) ? [relative] : [];
  });
}

/** The module table: `lib/…` → the tests named in its row. */
function coverageRows(): Map<string, string[]> {
  const rows = new Map<string, string[]>();
  for (const line of doc.split("\n")) {
    const row = /^\| `(lib\/[^`]+\.tsx?)` \| (.+) \|$/.exec(line);
    if (row)
      rows.set(
        row[1]!,
        [...row[2]!.matchAll(/`(tests\/[^`]+)`/g)].map((match) => match[1]!),
      );
  }
  return rows;
}

describe("docs/architecture.md", () => {
  it("names a test for every module of lib/: at its mirrored path, or in its table of modules covered elsewhere", () => {
    const rows = coverageRows();
    const untested = modules("lib").filter((file) => {
      const mirrored = `tests/unit/${file.replace(/\.tsx?$/, "")}.test.ts`;
      return !existsSync(path.join(ROOT, mirrored)) && !rows.has(file);
    });
    expect(untested).toEqual([]);
  });

  it("names only tests that exist, for modules that exist and have no mirrored test", () => {
    const problems: string[] = [];
    for (const [file, tests] of coverageRows()) {
      if (!existsSync(path.join(ROOT, file))) problems.push(`${file} is not a module any more`);
      if (existsSync(path.join(ROOT, `tests/unit/${file.replace(/\.tsx?$/, "")}.test.ts`)))
        problems.push(`${file} has its mirrored test now: drop its row`);
      if (tests.length === 0) problems.push(`${file} names no test`);
      for (const test of tests)
        if (!existsSync(path.join(ROOT, test))) problems.push(`${file}: ${test} does not exist`);
    }
    expect(problems).toEqual([]);
  });
});
