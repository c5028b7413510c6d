// The operation's upstream area: its client, or 503 area_not_configured when this Gatehouse does not have it.
import "server-only";

import { getReportsClient } from "@/lib/reports/service";
import { getUpstreams } from "@/lib/upstream";

import { areaNotConfigured, areaWithoutKey } from "../errors";
import type { ApiRequest } from "./request";

export async function area(state: ApiRequest): Promise<void> {
  const { area: name } = state.spec;
  if (!name) return;
  const upstreams = await getUpstreams();
  // Area A's client records every result its answers carry (lib/reports/recorder.ts).
  const client = name === "reports" ? await getReportsClient() : upstreams[name];
  if (!client) throw upstreams.config.upstream[name] ? areaWithoutKey(name) : areaNotConfigured(name);
  state.client = client;
}
