// Server start (called from instrumentation.ts in the Node.js runtime): the whole configuration is checked at
// once (./check.ts); problems are printed one plain line each on stderr and end the process with exit code 1 —
// no stack trace, no JSON, no secret. Warnings and notes go to the log. Then the gateway starts (in demo mode,
// its sandbox). Anything unexpected is left to Next, which logs it.
import "server-only";

import { logEvent, setLogInstance } from "@/lib/log";
import { explainMissingKek } from "@/lib/upstream/keys/missing-kek";

import { checkConfiguration } from "./check";
import { isConfigError, problemLines, readEnv, type ConfigProblem } from "./env";
import { startGateway } from "./index";

/** Prints the problems, one line each, and ends the process (exit 1). */
export function exitWithProblems(problems: ConfigProblem[]): never {
  process.stderr.write(`${problemLines(problems).join("\n")}\n`);
  process.exit(1);
}

export async function startGatewayOrExit(): Promise<void> {
  const check = checkConfiguration(process.env);
  if (check.problems.length > 0) exitWithProblems(await explainMissingKek(check.problems, process.env));
  // From the first line on, the log names this instance (INSTANCE_ID, checked above).
  setLogInstance(readEnv(process.env, []).instanceId);
  for (const note of check.notes) logEvent("info", note);
  for (const warning of check.warnings) logEvent("warn", warning, { startup_warning: true });
  try {
    await startGateway();
  } catch (error) {
    if (!isConfigError(error)) throw error;
    exitWithProblems(error.problems);
  }
}
