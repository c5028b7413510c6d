// /projects: the first view is rendered here; ProjectsView takes over in the browser (URL state + SWR).
import type { Metadata } from "next";

import { AreaNotConfigured } from "@/components/portal/area-not-configured";
import { PageHeader } from "@/components/ui/page-header";
import type { Page } from "@/lib/contract/common";
import type { Project } from "@/lib/contract/projects";
import { getServerContext } from "@/lib/auth/access";
import { requirePageUser } from "@/lib/auth/current-user";
import { can } from "@/lib/auth/permissions";
import { loadFromUpstream } from "@/lib/portal/failures";
import { parseProjectListParams, projectListQueryString } from "@/lib/portal/list-params";
import { getReportsClient } from "@/lib/reports/service";
import { projectMixes } from "@/lib/reports/trends";

import { FreshSwrCache } from "../fresh-swr-cache";
import { ProjectsView } from "./projects-view";

export const metadata: Metadata = { title: "Projects" };

export default async function ProjectsPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const user = await requirePageUser("reports:read");
  const reports = await getReportsClient();
  if (!reports) return <AreaNotConfigured area="reports" />;

  const query = parseProjectListParams(await searchParams);
  const { db } = await getServerContext();
  // Each project's reports by result, from Gatehouse's own record (no upstream call): rendered with the first
  // view so the column never fills in late.
  const [list, mixes] = await Promise.all([
    loadFromUpstream<Page<Project>>("The projects", () => reports.listProjects(query)),
    projectMixes(db),
  ]);

  return (
    <>
      <PageHeader
        title="Projects"
        description="Reports are grouped in projects, newest first. Open a project to see its reports."
      />
      <FreshSwrCache>
        <ProjectsView
          initialKey={projectListQueryString(query)}
          initialPage={list.ok ? list.value : undefined}
          initialFailure={list.ok ? undefined : list.failure}
          initialMixes={mixes}
          canDelete={can(user, "projects:write")}
        />
      </FreshSwrCache>
    </>
  );
}
