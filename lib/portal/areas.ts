// Which upstream areas this Gatehouse has, for pages and navigation (an area without base URL and key is
// hidden). Server-only: it reads the configuration through the upstream clients.
import "server-only";

import { getUpstreams } from "@/lib/upstream";

import type { ConfiguredAreas } from "./navigation";

export async function configuredAreas(): Promise<ConfiguredAreas> {
  const { reports, items } = await getUpstreams();
  return { reports: reports !== null, items: items !== null };
}
