// `npm start`: a configured Gatehouse, never the demo, whose process becomes the Next.js server itself, with
// nothing kept running beside it: a supervisor's SIGTERM reaches the server directly (lib/lifecycle/shutdown.ts
// drains and exits 0), and no parent holds memory only to pass signals on. Plain JavaScript, so that plain Node
// runs it (Node 20 has no type stripping and no process.execve).
//   1. The check, in a short-lived child with tsx (./start-check.ts): the environment and the .env files, the
//      whole configuration; on a problem it prints one line each and exits 1, and so does this. Else it hands back
//      HOST, PORT and HTTP_*_TIMEOUT_MS resolved, as one JSON line on fd 3 (stdout and stderr stay the terminal's).
//   2. In this process: those values, ./server-preload.mjs, then the build's standalone server (./next-server.mjs),
//      which reads the .env files again itself. The server runs in the current working directory (./data).
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, "..", "..");
const RESULT_FD = 3;

function fail(message) {
  process.stderr.write(`npm start: ${message}\n`);
  process.exit(1);
}

const check = spawnSync(
  process.execPath,
  [
    "--conditions=react-server",
    "--import",
    import.meta.resolve("tsx"),
    path.join(HERE, "start-check.ts"),
    `--result-fd=${RESULT_FD}`,
  ],
  {
    stdio: ["ignore", "inherit", "inherit", "pipe"],
    // tsx looks for tsconfig.json (the "@/" paths) in the working directory, which need not be the project's.
    env: { ...process.env, TSX_TSCONFIG_PATH: path.join(ROOT, "tsconfig.json") },
  },
);
if (check.error) fail(`the configuration check could not run (${check.error.message})`);
if (check.signal) fail(`the configuration check was ended by ${check.signal}`);
// It printed its problems itself.
if (check.status !== 0) process.exit(check.status ?? 1);

let plan;
try {
  plan = JSON.parse(String(check.output[RESULT_FD]));
} catch {
  fail("the configuration check passed but handed back nothing readable");
}

Object.assign(process.env, plan.env, { NODE_ENV: "production" });
await import("./server-preload.mjs");
const { serveStandalone } = await import("./next-server.mjs");
await serveStandalone(plan.host, plan.port);
