// Upstream keys at server start (instrumentation.ts, after the store is open): a store that holds sealed keys
// needs GATEHOUSE_KEK, and the KEK must open them; otherwise the start stops with one line naming what to set
// (never a key, never a stack trace). The stored keys' fingerprints are made again under this process's secret
// (./fingerprint.ts), so that a store from before keyed fingerprints shows no unkeyed one. Then the key ring
// reads the store once and starts polling it. In demo mode the demo's keys go into a store that has none for an
// area (sealed with the demo's own KEK), so that its admin can rotate them.
import "server-only";

import { getConfig } from "@/lib/config";
import { missingKekProblem } from "@/lib/config/kek";
import { exitWithProblems } from "@/lib/config/startup";
import { storeTarget } from "@/lib/config/store";
import { getDb } from "@/lib/db";

import { AREAS } from "@/lib/contract/areas";

import { upstreamKeyRing } from "../index";
import {
  countStoredKeys,
  DEMO_KEYS_SAVER,
  isKeyUnsealError,
  listStoredKeys,
  refingerprintStoredKeys,
  saveActiveKey,
} from "./store";

export async function startUpstreamKeysOrExit(): Promise<void> {
  const config = await getConfig();
  const db = await getDb(storeTarget());
  const kek = config.upstream.keyEncryption.current;
  if (config.demoKeys && kek) {
    for (const area of AREAS) {
      if ((await listStoredKeys(db, area)).length === 0)
        await saveActiveKey(db, area, config.demoKeys.first[area], DEMO_KEYS_SAVER, kek, config.dataKey);
    }
  }
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
