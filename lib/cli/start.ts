// `npm start`: a configured Gatehouse, never the demo. Reads the environment and the .env files the way Next
// will, checks the whole configuration (lib/config/check.ts) and, when anything is wrong, prints one line per
// problem and exits 1 before a server exists. Otherwise `next start` on HOST (default 0.0.0.0) and PORT
// (default 3000), in the current working directory (where ./data lives).
import { loadEnvConfig } from "@next/env";

import { checkConfiguration } from "@/lib/config/check";
import { problemLines, type ConfigProblem } from "@/lib/config/env";
import { DEMO_FLAG, isDemoMode } from "@/lib/config/mode";
import { explainMissingKek } from "@/lib/upstream/keys/missing-kek";

import { portProblem, ROOT, serveNext } from "./serve";

loadEnvConfig(ROOT, false);

async function main(): Promise<void> {
  const problems: ConfigProblem[] = [];
  if (isDemoMode()) {
    problems.push({ variable: DEMO_FLAG, problem: "npm start never runs the demo; unset it, or run the demo with: npm run demo", value: process.env[DEMO_FLAG] });
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
  serveNext(process.env.HOST || "0.0.0.0", port, { ...process.env, NODE_ENV: "production" });
}

void main();
