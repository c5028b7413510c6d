// Upstream keys at server start (instrumentation.ts, after the store is open): a store that holds sealed keys
// needs GATEHOUSE_KEK, and the KEK must open them; otherwise the start stops with one line naming what to set
// (never a key, never a stack trace). The stored keys' fingerprints are made again under this process's secret
// (./fingerprint.ts), so that a store from before keyed fingerprints shows no unkeyed one. Then the key ring
// reads the store once and starts polling it.
import "server-only";

import { getConfig } from "@/lib/config";
import { missingKekProblem } from "@/lib/config/kek";
import { exitWithProblems } from "@/lib/config/startup";
import { storeTarget } from "@/lib/config/store";
import { getDb } from "@/lib/db";

import { upstreamKeyRing } from "../index";
import { countStoredKeys, isKeyUnsealError, refingerprintStoredKeys } from "./store";

export async function startUpstreamKeysOrExit(): Promise<void> {
  const config = await getConfig();
  const db = await getDb(storeTarget());
  const stored = await countStoredKeys(db);
  if (stored > 0 && !config.upstream.keyEncryption.current) exitWithProblems([missingKekProblem(stored)]);
  if (stored > 0) await refingerprintStoredKeys(db, config.upstream.keyEncryption, config.dataKey);
  try {
    await upstreamKeyRing();
  } catch (error) {
    if (!isKeyUnsealError(error)) throw error;
    exitWithProblems([{ variable: "", problem: error.message }]);
  }
}
