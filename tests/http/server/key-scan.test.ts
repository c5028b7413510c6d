// The build holds no key: every file `next build` produced for browsers (.next/static) and for the server
// (.next/server), built with the canary keys in the environment, is searched for them.
import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { assertNoCanary, CANARY, CANARY_BUILD_MARKER } from "@/tests/support/canary";

async function filesUnder(dir: string): Promise<string[]> {
  const files: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) files.push(...(await filesUnder(full)));
    else if (entry.isFile()) files.push(full);
  }
  return files;
}

describe("the canary search", () => {
  it("recognises a key as is, URL-encoded and base64-encoded", () => {
    for (const text of [
      `x${CANARY.items}y`,
      encodeURIComponent(CANARY.reports),
      Buffer.from(CANARY.items).toString("base64"),
    ]) {
      expect(() => assertNoCanary(text, "a sample")).toThrow("A canary key leaked into a sample");
    }
    expect(() => assertNoCanary("nothing secret here", "a sample")).not.toThrow();
  });
});

describe("the build", () => {
  it("was made with the canary keys in its environment (tests/support/build.ts)", () => {
    expect(
      existsSync(CANARY_BUILD_MARKER),
      "run `npx tsx tests/support/build.ts`: this build did not see the canary keys",
    ).toBe(true);
  });

  it.each(["static", "server"].map((dir) => `${process.env.NEXT_DIST_DIR || ".next"}/${dir}`))(
    "no file under %s contains a key",
    async (dir) => {
      const files = await filesUnder(dir);
      expect(files.length).toBeGreaterThan(0);
      for (const file of files) assertNoCanary(await readFile(file, "latin1"), file);
    },
  );
});
