"use client";
// A new SWR cache for each visit of a page. The server renders every visit afresh; without this, rows
// cached on an earlier visit (before a report was deleted, say) would win over the server's fresh first view.
// Within one visit, moving between views of a list (pages, sorts, Back) still uses the cache.
import type { ReactNode } from "react";
import { SWRConfig } from "swr";

const newCache = () => new Map();

export function FreshSwrCache({ children }: { children: ReactNode }) {
  return <SWRConfig value={{ provider: newCache }}>{children}</SWRConfig>;
}
