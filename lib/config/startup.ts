// Server start (called from instrumentation.ts in the Node.js runtime): a bad configuration ends the process
// with the list of problems and no stack trace; anything else is left to Next, which logs it.
import "server-only";

import { ConfigError } from "./env";
import { startGateway } from "./index";

export async function startGatewayOrExit(): Promise<void> {
  try {
    await startGateway();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    // The message names each variable and what is wrong, never a key's value.
    console.error(error.message);
    process.exit(1);
  }
}
