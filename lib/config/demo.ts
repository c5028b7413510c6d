// Demo mode (GATEHOUSE_DEMO=1, from `npm run demo`): Gatehouse serves its embedded sandbox and points both areas
// at it with the sandbox's public demo keys.
import "server-only";

import path from "node:path";

import type { Sandbox } from "@/lib/sandbox";

export interface DemoSandbox {
  sandbox: Sandbox;
  reportsKey: string;
  itemsKey: string;
}

function isAddressInUse(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === "EADDRINUSE";
}

/** Starts the sandbox on 127.0.0.1:`port`, or on a free port when that one is taken (a second portal, a test...). */
export async function startDemoSandbox(port: number, dataDir: string): Promise<DemoSandbox> {
  // Imported lazily: a configured deployment never loads the sandbox.
  const { startSandbox, SANDBOX_KEYS } = await import("@/lib/sandbox");
  const options = { host: "127.0.0.1", dataDir: path.resolve(dataDir), quiet: true };
  let sandbox: Sandbox;
  try {
    sandbox = await startSandbox({ ...options, port });
  } catch (error) {
    if (!isAddressInUse(error)) throw error;
    sandbox = await startSandbox({ ...options, port: 0 });
  }
  return { sandbox, reportsKey: SANDBOX_KEYS.reports, itemsKey: SANDBOX_KEYS.items };
}
