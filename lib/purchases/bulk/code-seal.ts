// A bulk job must keep its codes until they are checked and for its CSV (7 days), unlike the history, which
// keeps only a keyed hash. So the codes are sealed at rest (lib/seal.ts) under a key derived from the data key
// (PURCHASE_CODE_HASH_KEY), so that a copy of the database alone does not give them away.
import "server-only";

import { sealer } from "@/lib/seal";

/** Seals and opens a job's codes with the data key; a code whose seal no longer opens reads as null. */
export const codeSealer = sealer("gatehouse bulk purchase-code seal");

/** A code whose seal no longer opens: its result, in words for the person who sent it. */
export const UNREADABLE_CODE_REASON =
  "The code can no longer be read: PURCHASE_CODE_HASH_KEY changed after the job was created. Send it again.";
