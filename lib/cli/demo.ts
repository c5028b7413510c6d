// `npm run demo`: builds the portal when the build is missing or older than a source file, then serves it in
// demo mode on http://127.0.0.1:${PORT:-3000}: GATEHOUSE_DEMO=1 tells the server so (it never guesses it from
// missing settings). The demo is a world of its own: the embedded sandbox stands in for both upstreams, and its
// store, session secret and sandbox state live under DEMO_DATA_DIR (./data/demo), apart from a configured
// deployment's store; it ignores the configured deployment's settings and serves loopback host names only.
import { spawnSync } from "node:child_process";

import { DEMO_FLAG, demoDataDir } from "@/lib/config/mode";

import { buildReason } from "./build-check";
import { BUILD, portProblem, serveNext } from "./serve";

function main(): void {
  const port = process.env.PORT || "3000";
  const badPort = portProblem(port);
  if (badPort) {
    console.error(`PORT: ${JSON.stringify(port)} ${badPort}`);
    process.exit(1);
  }
  const reason = buildReason();
  if (reason) {
    console.log(`demo: building the portal (${reason})…`);
    const build = spawnSync(process.execPath, [BUILD], { stdio: "inherit" });
    if (build.status !== 0) process.exit(build.status ?? 1);
  }
  console.log(
    `demo: starting Gatehouse in demo mode on http://127.0.0.1:${port}, data in ${demoDataDir()} (Ctrl-C stops it)`,
  );
  serveNext("127.0.0.1", port, { ...process.env, NODE_ENV: "production", [DEMO_FLAG]: "1" });
}

main();
