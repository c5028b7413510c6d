// Server start (called from instrumentation.ts in the Node.js runtime): the whole configuration is checked at
// once (./check.ts); problems are printed one plain line each on stderr and end the process with exit code 1 —
// no stack trace, no JSON, no secret. Warnings and notes go to the log. Then the gateway starts (in demo mode,
// its sandbox). Anything unexpected is left to Next, which logs it.
import "server-only";

import { logEvent, setLogInstance } from "@/lib/log";

import { checkConfiguration } from "./check";
import { isConfigError, problemLines, readEnv, type ConfigProblem } from "./env";
import { startGateway } from "./index";

/** Prints the problems, one line each, and ends the process (exit 1). */
export function exitWithProblems(problems: ConfigProblem[]): never {
  process.stderr.write(`${problemLines(problems).join("\n")}\n`);
  process.exit(1);
}

/**
 * `explain` may reword the problems with what only a higher floor knows (lib/upstream/keys/missing-kek.ts: a
 * missing key that is really a missing GATEHOUSE_KEK); instrumentation.ts passes it in.
 */
export async function startGatewayOrExit(
  explain: (problems: ConfigProblem[], env: NodeJS.ProcessEnv) => Promise<ConfigProblem[]>,
): Promise<void> {
  const check = checkConfiguration(process.env);
  if (check.problems.length > 0) exitWithProblems(await explain(check.problems, process.env));
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
