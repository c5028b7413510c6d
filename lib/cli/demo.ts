// `npm run demo`: builds the portal when the build is missing or older than a source file, then serves it in
// demo mode (the embedded sandbox stands in for both upstreams) on http://127.0.0.1:${PORT:-3000}.
// Demo mode is forced: the upstream variables are blanked for the server, whatever .env.local says.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

import { NEXT_BIN, portFromEnv, ROOT, serveNext } from "./serve";

const BUILD_ID = path.join(ROOT, process.env.NEXT_DIST_DIR || ".next", "BUILD_ID");

// Not inputs of the build: dependencies, outputs, data, tests, VCS and CI.
const SKIPPED = new Set(["node_modules", ".next", ".git", "data", "tests", "test-results", "playwright-report", "coverage", ".ci"]);
const SOURCE = /\.(ts|tsx|js|jsx|mjs|cjs|json|css)$/;
const NOT_SOURCE = new Set(["next-env.d.ts", "tsconfig.tsbuildinfo"]);

/** The newest modification time of any build input under `dir` (public/ counts whole). */
function newestSourceTime(dir: string, inPublic = false): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith(".") && entry.name !== ".env.production") continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!SKIPPED.has(entry.name)) newest = Math.max(newest, newestSourceTime(full, inPublic || entry.name === "public"));
    } else if (entry.isFile() && !NOT_SOURCE.has(entry.name) && (inPublic || SOURCE.test(entry.name))) {
      newest = Math.max(newest, statSync(full).mtimeMs);
    }
  }
  return newest;
}

function buildReason(): string | null {
  if (!existsSync(BUILD_ID)) return "no build yet";
  return newestSourceTime(ROOT) > statSync(BUILD_ID).mtimeMs ? "sources changed since the last build" : null;
}

function main(): void {
  const port = portFromEnv();
  const reason = buildReason();
  if (reason) {
    console.log(`demo: building the portal (${reason})…`);
    const build = spawnSync(NEXT_BIN, ["build"], { cwd: ROOT, stdio: "inherit", env: { ...process.env, NODE_ENV: "production" } });
    if (build.status !== 0) process.exit(build.status ?? 1);
  }
  console.log(`demo: starting Gatehouse in demo mode on http://127.0.0.1:${port} (Ctrl-C stops it)`);
  serveNext("127.0.0.1", port, {
    ...process.env,
    NODE_ENV: "production",
    // Set but empty: Next's .env loading never overrides a variable that exists, and empty means "not configured".
    REPORTS_API_BASE_URL: "",
    REPORTS_API_KEY: "",
    ITEMS_API_BASE_URL: "",
    ITEMS_API_KEY: "",
  });
}

main();
