// When the build must be made again: it is missing, or a source file is newer than it; tests, docs, scripts and
// data are not sources of the build.
import { mkdir, mkdtemp, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { buildReason } from "@/lib/cli/build-check";

let root: string;
const at = (seconds: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, seconds));

async function file(relative: string, seconds: number): Promise<void> {
  const full = path.join(root, relative);
  await mkdir(path.dirname(full), { recursive: true });
  await writeFile(full, "x");
  await utimes(full, at(seconds), at(seconds));
}

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), "gatehouse-build-check-"));
  await file("lib/a.ts", 1);
  await file("app/page.tsx", 2);
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("buildReason", () => {
  it("asks for a build when there is none", () => {
    expect(buildReason(root)).toBe("no build yet");
  });

  it("is content with a build newer than every source", async () => {
    await file(".next/BUILD_ID", 10);
    expect(buildReason(root)).toBeNull();
  });

  it("asks again once a source changes, but not for a test, a doc, a script or data", async () => {
    await file(".next/BUILD_ID", 10);
    for (const notSource of [
      "tests/x.test.ts",
      "docs/a.md",
      "scripts/b.ts",
      "data/c.json",
      "artifacts/lighthouse/d.report.json",
      "README.md",
    ])
      await file(notSource, 20);
    expect(buildReason(root)).toBeNull();
    await file("components/ui/d.tsx", 20);
    expect(buildReason(root)).toBe("sources changed since the last build");
  });
});
