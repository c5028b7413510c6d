// How a command of lib/cli runs when it is the process's entry (`tsx lib/cli/users.ts …`): the portal's settings
// loaded first (the environment, then .env.local and the other .env files), the command's answer as the exit
// code, and an unexpected failure said in one line rather than a stack trace. Tests import the command's main().
import path from "node:path";
import { fileURLToPath } from "node:url";

import { loadEnvConfig } from "@next/env";

/** Where a command writes: the terminal, or a test's lines. */
export interface Output {
  out(line: string): void;
  err(line: string): void;
}

export type Command = (argv: string[], io: Output) => Promise<number>;

/** Runs `main` with the process's arguments when `moduleUrl` (the command's import.meta.url) is the entry. */
export function runWhenEntryPoint(name: string, moduleUrl: string, main: Command): void {
  const file = fileURLToPath(moduleUrl);
  if (process.argv[1] === undefined || path.resolve(process.argv[1]) !== file) return;
  loadEnvConfig(path.resolve(path.dirname(file), "..", ".."), false);
  main(process.argv.slice(2), { out: (line) => console.log(line), err: (line) => console.error(line) }).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      console.error(`${name}: unexpected error: ${error instanceof Error ? error.message : String(error)}`);
      process.exitCode = 1;
    },
  );
}
