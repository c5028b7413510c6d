// Whether the portal's build is missing or older than a source file (used by npm run demo, npm run bench and the
// tests' build, tests/support/build.ts --if-stale).
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

import { ROOT } from "./serve";

// Not inputs of the build: dependencies, outputs, data, tests, VCS and CI.
const SKIPPED = new Set([
  "node_modules",
  ".next",
  ".git",
  "data",
  "tests",
  "test-results",
  "playwright-report",
  "coverage",
  ".ci",
  "docs",
  "scripts",
  "artifacts",
]);
const SOURCE = /\.(ts|tsx|js|jsx|mjs|cjs|json|css)$/;
const NOT_SOURCE = new Set(["next-env.d.ts", "tsconfig.tsbuildinfo"]);

/** The newest modification time of any build input under `dir` (public/ counts whole). */
function newestSourceTime(dir: string, inPublic = false): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith(".") && entry.name !== ".env.production") continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!SKIPPED.has(entry.name))
        newest = Math.max(newest, newestSourceTime(full, inPublic || entry.name === "public"));
    } else if (entry.isFile() && !NOT_SOURCE.has(entry.name) && (inPublic || SOURCE.test(entry.name))) {
      newest = Math.max(newest, statSync(full).mtimeMs);
    }
  }
  return newest;
}

/** Why the build in NEXT_DIST_DIR (default .next) must be made again, or null when it is up to date. */
export function buildReason(root: string = ROOT): string | null {
  const buildId = path.join(root, process.env.NEXT_DIST_DIR || ".next", "BUILD_ID");
  if (!existsSync(buildId)) return "no build yet";
  return newestSourceTime(root) > statSync(buildId).mtimeMs ? "sources changed since the last build" : null;
}
