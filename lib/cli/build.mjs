// `npm run build`, and the one build the demo and the tests make too: `next build`, then what its standalone output
// (next.config.mjs `output: "standalone"`) leaves to us: ./public and the build's static files copied inside it,
// the only place its server serves them from (Next expects a CDN might serve them instead; Gatehouse serves them
// itself). The Dockerfile copies the same two folders. Plain JavaScript, so that plain Node runs it.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { standaloneDir } from "./next-server.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const NEXT_CLI = path.join(ROOT, "node_modules", "next", "dist", "bin", "next");

const build = spawnSync(process.execPath, [NEXT_CLI, "build", ROOT], {
  stdio: "inherit",
  env: { ...process.env, NODE_ENV: "production" },
});
if (build.status !== 0) process.exit(build.status ?? 1);

const { dir, distDir } = standaloneDir();
if (!existsSync(dir)) {
  process.stderr.write(
    `npm run build: ${path.relative(ROOT, dir)} is missing (next.config.mjs must keep output: "standalone")\n`,
  );
  process.exit(1);
}
for (const [from, to] of [
  [path.join(ROOT, "public"), path.join(dir, "public")],
  [path.join(ROOT, distDir, "static"), path.join(dir, distDir, "static")],
]) {
  rmSync(to, { recursive: true, force: true });
  if (existsSync(from)) cpSync(from, to, { recursive: true });
}
