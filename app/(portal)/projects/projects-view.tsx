"use client";
// The projects list in the browser: URL state (history API) and SWR against /api/projects, like the reports
// list. Each row shows its reports' number and mix of results (Gatehouse's record, /api/trends/projects).
// Deleting a project (and with it its reports) asks first, naming how many reports go from the upstream's own
// count (the reports list filtered by the project: its total), then refreshes the list.
import Link from "next/link";
import { useState } from "react";
import useSWR from "swr";

import { ResultMixBar } from "@/components/portal/result-mix-bar";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { DataTable, type Column } from "@/components/ui/data-table";
import { EmptyState } from "@/components/ui/empty-state";
import { LocalTime } from "@/components/ui/local-time";
import { PerPageSelect } from "@/components/ui/per-page-select";
import { SearchField } from "@/components/ui/search-field";
import { Toolbar } from "@/components/ui/toolbar";
import { useToast } from "@/components/ui/toast";
import { useApiAction } from "@/components/use-api-form";
import type { Page } from "@/lib/contract/common";
import type { ProjectMix } from "@/lib/contract/history";
import type { Project, ProjectListQuery } from "@/lib/contract/projects";
import type { Report } from "@/lib/contract/reports";
import {
  parseProjectListParams,
  PROJECT_DEFAULTS,
  projectListQueryString,
  withChanges,
} from "@/lib/portal/list-params";
import { type ProjectSortField } from "@/lib/contract/values";
import { projectOverviewHref } from "@/lib/portal/trends";
import { useListUrl } from "@/lib/portal/use-list-url";

import { ClearFilters, ListCount, ListPages, NoMatches, pagingOf, sortingOf, useListPage } from "../list-pages";
import styles from "../lists.module.css";

export interface ProjectsViewProps {
  initialKey: string;
  initialPage?: Page<Project>;
  initialFailure?: { title: string; message: string };
  /** Each project's reports by their newest result, as Gatehouse saw them. */
  initialMixes: ProjectMix[];
  canDelete: boolean;
}

/** "Delete the project shop.example and its 14 reports?"; without a count, the question names the project only. */
export function deleteProjectTitle(name: string, reports: number | undefined): string {
  if (reports === undefined) return `Delete the project ${name}?`;
  if (reports === 0) return `Delete the project ${name}? It has no reports.`;
  return `Delete the project ${name} and its ${reports} ${reports === 1 ? "report" : "reports"}?`;
}

const GONE = "This project no longer exists; someone may have deleted it already.";

const reportsOfProjectHref = (name: string) => `/reports?project=${encodeURIComponent(name)}`;

export function ProjectsView({ initialKey, initialPage, initialFailure, initialMixes, canDelete }: ProjectsViewProps) {
  const toast = useToast();
  const url = useListUrl<ProjectListQuery>(parseProjectListParams, projectListQueryString, "shallow");
  const { query } = url;
  const list = useListPage<Project>(
    "/api/projects",
    projectListQueryString(query),
    { key: initialKey, page: initialPage, failure: initialFailure },
    "The projects could not be loaded",
    url,
  );
  const { data, isValidating, mutate, failure } = list;
  const [deleting, setDeleting] = useState<string | null>(null);
  const removal = useApiAction({ failureOf: (error) => (error.status === 404 ? { message: GONE } : null) });
  const { data: mixes, mutate: mutateMixes } = useSWR<{ data: ProjectMix[] }>("/api/trends/projects", {
    fallbackData: { data: initialMixes },
  });
  const mixOf = new Map((mixes?.data ?? []).map((mix) => [mix.project, mix]));
  // The upstream's own count of the project's reports: the total of its reports list (one small page).
  const { data: doomed } = useSWR<Page<Report>>(
    deleting === null ? null : `/api/reports?project=${encodeURIComponent(deleting)}&per_page=10`,
    { revalidateOnMount: true },
  );
  const doomedCount = deleting !== null ? doomed?.meta.total : undefined;

  const columns: Column<Project, ProjectSortField>[] = [
    {
      id: "name",
      header: "Name",
      sortKey: "project",
      rowHeader: true,
      priority: "primary",
      wrap: "wrap",
      cell: (project) => (
        <Link href={reportsOfProjectHref(project.project)} aria-label={`${project.project}: its reports`}>
          {project.project}
        </Link>
      ),
    },
    {
      id: "reports",
      header: "Reports",
      wrap: "nowrap",
      cell: (project) => {
        const mix = mixOf.get(project.project);
        return mix ? <ResultMixBar counts={mix} /> : <span className={styles.muted}>None seen yet</span>;
      },
    },
    {
      id: "created",
      header: "Created",
      sortKey: "created_at",
      firstDirection: "desc",
      wrap: "nowrap",
      cell: (project) => <LocalTime iso={project.created_at} display="both" />,
    },
    {
      id: "over-time",
      header: "Over time",
      wrap: "nowrap",
      cell: (project) => (
        <Link
          href={projectOverviewHref(project.project)}
          aria-label={`${project.project}: trends, compare, schedule and alerts`}
        >
          Trends and schedule
        </Link>
      ),
    },
    ...(canDelete
      ? [
          {
            id: "actions",
            header: "Actions",
            wrap: "nowrap" as const,
            cell: (project: Project) => (
              <Button
                size="sm"
                variant="danger"
                aria-label={`Delete ${project.project}`}
                onClick={() => setDeleting(project.project)}
              >
                Delete
              </Button>
            ),
          },
        ]
      : []),
  ];

  const remove = async () => {
    if (deleting === null) return false;
    if ((await removal.send(`/api/projects/${encodeURIComponent(deleting)}`, { method: "DELETE" })) === false) {
      return false;
    }
    toast.success(`Deleted the project ${deleting} and its reports.`);
    void mutate();
    void mutateMixes();
    return true;
  };

  const total = data?.meta.total;
  return (
    <section aria-label="Projects list">
      {/* No filters to fold: the search and the page size share the toolbar on a phone too. */}
      <Toolbar label="Search">
        <SearchField
          label="Search by name"
          value={query.search ?? ""}
          onSearch={(search) => url.replace(withChanges(query, { search: search || undefined }))}
        />
        <PerPageSelect
          value={query.per_page ?? PROJECT_DEFAULTS.per_page}
          onChange={(per_page) => url.push(withChanges(query, { per_page }))}
        />
      </Toolbar>
      <ClearFilters url={url} shown={Boolean(query.search)}>
        Clear the search
      </ClearFilters>

      <ListCount loading={isValidating} loadingText="Loading projects…" total={total} one="project" many="projects" />

      <DataTable
        caption="Projects"
        captionHidden
        columns={columns}
        rowKey={(project) => project.project}
        {...list.table}
        {...sortingOf(url, query, PROJECT_DEFAULTS)}
        empty={
          query.search ? (
            <NoMatches title="No projects match" clearHref={url.hrefFor({})} clearLabel="Clear the search">
              Try another part of the name.
            </NoMatches>
          ) : (
            <EmptyState title="No projects yet" headingLevel={2}>
              A project appears when a report is created for a new site.
            </EmptyState>
          )
        }
      />

      <ListPages meta={data?.meta} failed={Boolean(failure)} label="Projects pages" {...pagingOf(url, query)} />

      <ConfirmDialog
        open={deleting !== null}
        onClose={() => setDeleting(null)}
        title={deleteProjectTitle(deleting ?? "", doomedCount)}
        confirmLabel="Delete project and its reports"
        busyLabel="Deleting…"
        variant="danger"
        action={removal}
        onConfirm={remove}
      >
        <p>
          The project <strong>{deleting}</strong> will be deleted for everyone, and{" "}
          <strong>
            {doomedCount === undefined
              ? "all of its reports go with it"
              : doomedCount === 0
                ? "so will any report made for it since"
                : `its ${doomedCount} ${doomedCount === 1 ? "report goes" : "reports go"} with it`}
          </strong>
          . This cannot be undone.
        </p>
      </ConfirmDialog>
    </section>
  );
}
