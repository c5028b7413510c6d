// The framework floor, scripts/framework-floor/: a bare Next.js app with no code of the portal's — one page
// (`npm run lighthouse` audits it beside the portal's pages) and one route handler, GET /api/ping (`npm run bench`
// and `npm run bench:guard` load it beside the portal's routes). Built when stale, started on a free port.
import { spawn, spawnSync } from "node:child_process";
import path from "node:path";

import { buildReason } from "@/lib/cli/build-check";
import { NEXT_BIN, ROOT } from "@/lib/cli/serve";
import { freePort } from "@/tests/support/processes";

export const FLOOR_APP = path.join(ROOT, "scripts", "framework-floor");

export interface FloorServer {
  url: string;
  /** The `next start` process: the bench reads its CPU time and memory. */
  pid: number;
  stop(): Promise<void>;
}

/** The floor's production build (made when stale, in its own folder), started on 127.0.0.1 at a free port. */
export async function startFrameworkFloor(log: (line: string) => void): Promise<FloorServer> {
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" };
  const reason = buildReason(FLOOR_APP);
  if (reason) {
    const started = Date.now();
    log(`building the framework floor, a bare Next.js app (${reason})…`);
    const build = spawnSync(NEXT_BIN, ["build", FLOOR_APP], { stdio: "ignore", env });
    const relative = path.relative(ROOT, FLOOR_APP);
    if (build.status !== 0) throw new Error(`building ${relative} failed: run next build ${relative} to see why`);
    log(`built the framework floor in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  }
  const port = await freePort();
  const server = spawn(NEXT_BIN, ["start", FLOOR_APP, "-H", "127.0.0.1", "-p", String(port)], { stdio: "ignore", env });
  const exited = new Promise<void>((resolve) => server.once("exit", () => resolve()));
  const stop = async () => {
    if (server.exitCode === null && server.signalCode === null) server.kill("SIGTERM");
    await exited;
  };
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (server.exitCode !== null) throw new Error(`the framework floor's next start exited with ${server.exitCode}`);
    if (
      await fetch(`${url}/api/ping`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (i === 600) {
      await stop();
      throw new Error(`the framework floor did not start within 60 s`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { url, pid: server.pid!, stop };
}
