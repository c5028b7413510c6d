// docs/architecture.md says what the code is: its diagram of the rooms is the one scripts/architecture.ts draws
// from dependency-cruiser's reading of the imports, and every module of lib/ has a test at its mirrored path or a
// row naming tests that exist.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";

import { beforeAll, describe, expect, it } from "vitest";

import { cruiseRooms, mermaid } from "@/scripts/architecture";
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
  // dependency-cruiser reads the whole tree: seconds, more than a test's timeout on a loaded machine.
  let diagram: string;
  beforeAll(async () => {
    diagram = mermaid(await cruiseRooms());
  });

  it("shows the rooms' imports as the code has them (regenerate with: npx tsx scripts/architecture.ts)", () => {
    const block = /<!-- rooms:begin -->\n([\s\S]*?)\n<!-- rooms:end -->/.exec(doc);
    expect(block, "the diagram between <!-- rooms:begin --> and <!-- rooms:end -->").not.toBeNull();
    expect(block![1]).toBe(diagram);
  });

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
