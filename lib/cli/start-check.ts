// The check half of `npm start`, run by ./start.mjs as a short-lived child before any server exists. Reads the
// environment and the .env files the way Next will, checks the whole configuration (lib/config/check.ts) and, when
// anything is wrong, prints one line per problem on stderr and exits 1. Otherwise it hands back, as one JSON line,
// what the server needs from here: HOST (default 0.0.0.0), PORT (default 3000) and HTTP_*_TIMEOUT_MS resolved
// (./serve.ts), and exits 0. The line goes to the file descriptor named by --result-fd=N (start.mjs reads fd 3,
// so that stdout and stderr stay the terminal's), else to stdout.
import { writeSync } from "node:fs";

import { loadEnvConfig } from "@next/env";

import { checkConfiguration } from "@/lib/config/check";
import { problemLines, type ConfigProblem } from "@/lib/config/env";
import { DEMO_FLAG, isDemoMode } from "@/lib/config/mode";
import { explainMissingKek } from "@/lib/upstream/keys/missing-kek";

import { httpServerEnv, portProblem, ROOT } from "./serve";

/** What ./start.mjs applies before it starts Next in its own process. */
interface StartPlan {
  host: string;
  port: string;
  /** Set in the server's process.env (HTTP_*_TIMEOUT_MS, for ./server-preload.mjs). */
  env: Record<string, string>;
}

// Node reads these only when a process starts: set in a .env file, they would reach the server too late (before
// npm start became one process, its child got them; `next start` never did).
const READ_AT_NODE_START = ["NODE_OPTIONS", "NODE_EXTRA_CA_CERTS"];

const { parsedEnv = {}, loadedEnvFiles } = loadEnvConfig(ROOT, false);

/** One line per variable of READ_AT_NODE_START that only a .env file sets. */
function tooLateLines(): string[] {
  return READ_AT_NODE_START.filter((name) => name in parsedEnv).map((name) => {
    const file = loadedEnvFiles.find((loaded) => name in loaded.env)?.path ?? "a .env file";
    return `${name}: set in ${file}, where it has no effect (Node reads it when the process starts, before the .env files); set it in npm start's environment instead`;
  });
}

async function main(): Promise<void> {
  const problems: ConfigProblem[] = [];
  if (isDemoMode()) {
    problems.push({
      variable: DEMO_FLAG,
      problem: "npm start never runs the demo; unset it, or run the demo with: npm run demo",
      value: process.env[DEMO_FLAG],
    });
  } else {
    problems.push(...(await explainMissingKek(checkConfiguration(process.env).problems, process.env)));
  }
  const port = process.env.PORT || "3000";
  const badPort = portProblem(port);
  if (badPort) problems.push({ variable: "PORT", problem: badPort, value: port });

  if (problems.length > 0) {
    process.stderr.write(`${problemLines(problems).join("\n")}\n`);
    process.exit(1);
  }
  const tooLate = tooLateLines();
  if (tooLate.length > 0) process.stderr.write(`${tooLate.join("\n")}\n`);
  const plan: StartPlan = { host: process.env.HOST || "0.0.0.0", port, env: httpServerEnv(process.env) };
  const fd = Number(process.argv.find((arg) => arg.startsWith("--result-fd="))?.slice("--result-fd=".length) ?? 1);
  writeSync(fd, `${JSON.stringify(plan)}\n`);
  // Whatever the check opened (a store's pool) must not keep this process, and so npm start, waiting.
  process.exit(0);
}

void main();
