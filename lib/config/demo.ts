// Demo mode (GATEHOUSE_DEMO=1, from `npm run demo`): Gatehouse serves its embedded sandbox and points both areas
// at it. The sandbox's public demo keys are kept in the portal (sealed with a key-encryption key of the demo's own,
// in `<DEMO_DATA_DIR>/kek`), as a configured deployment keeps keys without REPORTS_API_KEY and ITEMS_API_KEY, so
// that the Upstream connections page can rotate them; the sandbox accepts a second key per area to rotate to.
import "server-only";

import path from "node:path";

import type { Area } from "@/lib/contract/areas";
import type { Sandbox } from "@/lib/sandbox";

import { ConfigError } from "./env";
import { readKeyEncryptionKeys } from "./kek";
import { keptDemoSecret } from "./session";

export const DEMO_KEK_FILE = "kek";

export interface DemoSandbox {
  sandbox: Sandbox;
  keys: DemoKeys;
}

export interface DemoKeys {
  /** The keys the demo's store starts with, one per area. */
  first: Record<Area, string>;
  /** A second key per area that the sandbox accepts too: what the demo's admin rotates to. */
  next: Record<Area, string>;
}

/** The demo's key-encryption key: read from `<dataDir>/kek`, created on first start. */
export function demoKek(dataDir: string): Buffer {
  const file = path.resolve(dataDir, DEMO_KEK_FILE);
  const { keys, problems } = readKeyEncryptionKeys({ GATEHOUSE_KEK: keptDemoSecret(file) });
  if (!keys.current)
    throw new ConfigError(
      problems.map((problem) => ({ ...problem, problem: `${problem.problem} (the demo's, in ${file}: delete it)` })),
    );
  return keys.current;
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
  return {
    sandbox,
    keys: {
      first: { reports: SANDBOX_KEYS.reports, items: SANDBOX_KEYS.items },
      next: { reports: SANDBOX_KEYS.reportsNext, items: SANDBOX_KEYS.itemsNext },
    },
  };
}
