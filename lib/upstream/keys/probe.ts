// Testing a key before it is saved: the same cheap, read-only operation as the readiness check (area A: the
// first page of projects; area B: the account details), sent straight to the upstream with the candidate key —
// no cache, no breaker, no retries, so that the answer is the upstream's own about this key.
import "server-only";

import type { Area } from "@/lib/contract/areas";
import type { Config } from "@/lib/config";

import { isUpstreamError, type UpstreamError } from "../errors";
import { createItemsClient } from "../items";
import { createReportsClient } from "../reports";

export type ProbeResult = { accepted: true } | { accepted: false; error: UpstreamError };

/** Asks the area's upstream one read with `key`. Throws only for errors that are not the upstream's. */
export async function probeKey(config: Config, area: Area, key: string): Promise<ProbeResult> {
  const timeoutMs = config.upstream.timeoutMs;
  try {
    if (area === "reports") {
      const settings = config.upstream.reports!;
      await createReportsClient({ baseUrl: settings.baseUrl, apiKey: key }, { timeoutMs }).listProjects(
        { per_page: 10 },
        { fresh: true },
      );
    } else {
      await createItemsClient({ ...config.upstream.items!, apiKey: key }, { timeoutMs }).getAccount({ fresh: true });
    }
    return { accepted: true };
  } catch (error) {
    if (isUpstreamError(error)) return { accepted: false, error };
    throw error;
  }
}
