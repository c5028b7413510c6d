// What the audit streaming tests share: waiting until the delivery log holds a failed batch for each of the two
// destinations (the receivers were stopped and a batch found them gone).
import type { Store } from "@/lib/db";

import { until } from "./until";

export async function untilEachDestinationFailed(store: Store): Promise<void> {
  await until(
    async () =>
      (
        await store.db
          .selectFrom("audit_stream_deliveries")
          .select("destination")
          .where("status", "=", "failed")
          .groupBy("destination")
          .execute()
      ).length === 2,
    "a failed batch to each destination",
    40_000,
    50,
  );
}
