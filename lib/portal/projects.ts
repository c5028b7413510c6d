// Project names for the reports list's project filter, read on the server. The projects list is paged (100 at
// most); the filter offers the first 100 by name, and the list's URL may still name any other project.
import "server-only";

import type { ReportsClient } from "@/lib/upstream";
import { isUpstreamError } from "@/lib/upstream/is-upstream-error";

export async function projectNamesForFilter(reports: ReportsClient): Promise<string[]> {
  try {
    const page = await reports.listProjects({ sort_by: "project", sort: "asc", per_page: 100 });
    return page.data.map((project) => project.project);
  } catch (error) {
    // The filter is a convenience: without it the list still works (the project can come from a link).
    if (isUpstreamError(error)) return [];
    throw error;
  }
}
