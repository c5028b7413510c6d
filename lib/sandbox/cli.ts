// `npm run sandbox [-- --reset] [--port N] [--control] [--data-dir DIR]`: serves both stand-in upstream APIs
// until SIGINT/SIGTERM. Environment: SANDBOX_PORT (default 4010; demo mode reads it too).
import { parseArgs } from "node:util";

import { FIXED_PURCHASE_CODES, SANDBOX_KEYS, startSandbox } from "./index";

function fail(message: string): never {
  console.error(`sandbox: ${message}`);
  process.exit(2);
}

const USAGE = "usage: npm run sandbox [-- --reset] [--port N] [--control] [--data-dir DIR]";

// Flags of this command now; set, the old variables stop it rather than be ignored (lib/config/variables.ts).
const RETIRED = { SANDBOX_CONTROL: "--control", SANDBOX_DATA_DIR: "--data-dir DIR" };

function portFrom(text: string, source: string): number {
  const port = Number(text);
  if (!/^\d+$/.test(text) || port > 65_535) fail(`${source} must be a port number from 0 to 65535, got "${text}"`);
  return port;
}

async function main(): Promise<void> {
  let args;
  try {
    args = parseArgs({
      options: {
        reset: { type: "boolean", default: false },
        port: { type: "string" },
        control: { type: "boolean", default: false },
        "data-dir": { type: "string", default: "./data/sandbox" },
        help: { type: "boolean", short: "h" },
      },
    }).values;
  } catch (error) {
    fail(`${(error as Error).message}\n${USAGE}`);
  }
  if (args.help) {
    console.log(`${USAGE}\nenv: SANDBOX_PORT`);
    return;
  }
  for (const [variable, flag] of Object.entries(RETIRED))
    if (process.env[variable]) fail(`${variable} is no longer read; use ${flag} instead`);

  const port =
    args.port !== undefined
      ? portFrom(args.port, "--port")
      : process.env.SANDBOX_PORT
        ? portFrom(process.env.SANDBOX_PORT, "SANDBOX_PORT")
        : 4010;
  const { control, "data-dir": dataDir } = args;

  let sandbox;
  try {
    sandbox = await startSandbox({ port, control, dataDir, reset: args.reset });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EADDRINUSE")
      fail(`port ${port} is in use; pick another with --port N or SANDBOX_PORT`);
    throw error;
  }

  // Ready for a signal before saying where it listens: whoever reads that line may stop it at once.
  const shutdown = (signal: string) => {
    console.log(`[sandbox] ${signal}: closing`);
    void sandbox.close().then(() => process.exit(0));
  };
  process.once("SIGINT", () => shutdown("SIGINT"));
  process.once("SIGTERM", () => shutdown("SIGTERM"));

  console.log(
    [
      `Sandbox listening on ${sandbox.url} (state in ${dataDir}${args.reset ? ", reseeded" : ""}${control ? ", control API on /__sandbox" : ""})`,
      `  Reports API (area A): ${sandbox.reportsBaseUrl}   Authorization: Bearer ${SANDBOX_KEYS.reports}`,
      `  Item API    (area B): ${sandbox.itemsBaseUrl}   api_key=${SANDBOX_KEYS.items} | ${SANDBOX_KEYS.items2} | ${SANDBOX_KEYS.itemsEmpty}`,
      `  Purchase codes: ${FIXED_PURCHASE_CODES.active} (active support), ${FIXED_PURCHASE_CODES.expired} (expired), ${FIXED_PURCHASE_CODES.none} (no support)`,
      `  Try: curl -H "Authorization: Bearer ${SANDBOX_KEYS.reports}" ${sandbox.reportsBaseUrl}/api/v1/reports`,
    ].join("\n"),
  );
}

main().catch((error: unknown) => {
  console.error("sandbox: failed to start:", error);
  process.exit(1);
});
