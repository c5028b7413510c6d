// The README is for a newcomer: short, with its pictures, linking every page of docs/; and the test command it
// names is what CI runs.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";

import { describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "../..");
const readme = readFileSync(path.join(ROOT, "README.md"), "utf8");

describe("the README", () => {
  it("stays short", () => {
    expect(readme.split("\n").length).toBeLessThanOrEqual(200);
  });

  it("links every page of docs/", () => {
    const pages = readdirSync(path.join(ROOT, "docs")).filter((file) => file.endsWith(".md"));
    expect(pages.length).toBeGreaterThanOrEqual(6);
    expect(pages.filter((page) => !readme.includes(`(docs/${page})`))).toEqual([]);
  });

  it("shows pictures that exist, made by the committed script", () => {
    const images = [...readme.matchAll(/!\[[^\]]*\]\((docs\/images\/[^)]+\.png)\)/g)].map((match) => match[1]!);
    expect(images.length).toBeGreaterThanOrEqual(2);
    for (const image of images) expect(existsSync(path.join(ROOT, image)), image).toBe(true);
    const script = readFileSync(path.join(ROOT, "scripts", "lighthouse.ts"), "utf8");
    for (const image of images) expect(script).toContain(path.basename(image, ".png"));
  });

  it("names the test command CI runs", () => {
    expect(readme).toMatch(/^npm test\s+#/m);
    const ci = readFileSync(path.join(ROOT, ".ci", "run"), "utf8")
      .split("\n")
      .filter((line) => line.trim() && !line.trim().startsWith("#"));
    expect(ci.at(-1)).toBe("npm test");
    const scripts = (
      JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> }
    ).scripts;
    expect(scripts.test).toMatch(/^tsx scripts\/test-prerequisites\.ts && /);
  });
});
