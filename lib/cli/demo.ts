// `npm run demo`: builds the portal when the build is missing or older than a source file, then serves it in
// demo mode (the embedded sandbox stands in for both upstreams) on http://127.0.0.1:${PORT:-3000}.
// Demo mode is forced: the upstream variables are blanked for the server, whatever .env.local says.
import { spawnSync } from "node:child_process";
import { buildReason } from "./build-check";
import { NEXT_BIN, portFromEnv, ROOT, serveNext } from "./serve";

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
