// The one way Gatehouse's production server runs outside a container (`npm start`, the demo, the tests, Lighthouse,
// the bench): the standalone output of `next build` (next.config.mjs `output: "standalone"`, the same files the
// container runs), served from this process with the working directory left as it is. Next's own
// `.next/standalone/server.js` (the container's entry point) first changes into its folder: ./data and every other
// relative path would then point inside the build, which the next build deletes. So this does what that file does,
// minus the chdir, and loads the .env files of the project first (the standalone folder has none).
// Plain JavaScript, so that plain Node runs it. Run: `node lib/cli/next-server.mjs <host> <port>`, or import
// serveStandalone (lib/cli/start.mjs does, in its own process).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");

/** The standalone folder of the build in NEXT_DIST_DIR (default .next), and the build's folder inside it. */
export function standaloneDir(env = process.env) {
  const distDir = env.NEXT_DIST_DIR || ".next";
  return { dir: path.join(ROOT, distDir, "standalone"), distDir };
}

/** Starts the server on host:port; resolves once it listens. A build that is not there is one line and exit 1. */
export async function serveStandalone(host, port) {
  process.env.NODE_ENV = "production";
  const { dir, distDir } = standaloneDir();
  let config;
  try {
    ({ config } = JSON.parse(readFileSync(path.join(dir, distDir, "required-server-files.json"), "utf8")));
  } catch {
    process.stderr.write(
      `No production build in ${path.relative(process.cwd(), path.join(ROOT, distDir)) || "."}: run \`npm run build\` first.\n`,
    );
    process.exit(1);
  }
  // The project's .env files, as `next start` read them from its folder (a variable already set wins).
  createRequire(import.meta.url)("@next/env").loadEnvConfig(ROOT, false, { info: () => {}, error: console.error });
  // What Next's generated server.js sets: the configuration the build serialised, read by the server instead of
  // next.config.mjs (which the standalone folder does not have).
  process.env.__NEXT_PRIVATE_STANDALONE_CONFIG = JSON.stringify(config);
  const fromBuild = createRequire(path.join(dir, "server.js"));
  fromBuild("next");
  const { startServer } = fromBuild("next/dist/server/lib/start-server");
  await startServer({ dir, isDev: false, config, hostname: host, port: Number(port), allowRetry: false });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [host, port] = process.argv.slice(2);
  if (!host || !/^\d+$/.test(port ?? "")) {
    process.stderr.write("Usage: node lib/cli/next-server.mjs <host> <port>\n");
    process.exit(2);
  }
  serveStandalone(host, port).catch((error) => {
    process.stderr.write(`The server did not start: ${error instanceof Error ? error.message : error}\n`);
    process.exit(1);
  });
}
