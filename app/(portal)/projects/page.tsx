// /projects: the first view is rendered here; ProjectsView takes over in the browser (URL state + SWR).
import type { Metadata } from "next";

import { AreaNotConfigured } from "@/components/portal/area-not-configured";
import { PageHeader } from "@/components/ui/page-header";
import type { Page } from "@/lib/contract/common";
import type { Project } from "@/lib/contract/projects";
import { requirePageUser } from "@/lib/auth/current-user";
import { can } from "@/lib/auth/permissions";
import { loadFromUpstream } from "@/lib/portal/failures";
import { parseProjectListParams, projectListQueryString } from "@/lib/portal/list-params";
import { getReportsClient } from "@/lib/reports/service";

import { FreshSwrCache } from "../fresh-swr-cache";
import { ProjectsView } from "./projects-view";

export const metadata: Metadata = { title: "Projects" };

export default async function ProjectsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requirePageUser("reports:read");
  const reports = await getReportsClient();
  if (!reports) return <AreaNotConfigured area="reports" />;

  const query = parseProjectListParams(await searchParams);
  const list = await loadFromUpstream<Page<Project>>("The projects", () => reports.listProjects(query));

  return (
    <>
      <PageHeader title="Projects" description="Reports are grouped in projects. Open a project to see its reports." />
      <FreshSwrCache>
        <ProjectsView
          initialKey={projectListQueryString(query)}
          initialPage={list.ok ? list.value : undefined}
          initialFailure={list.ok ? undefined : list.failure}
          canDelete={can(user.role, "projects:write")}
        />
      </FreshSwrCache>
    </>
  );
}
