// /projects/{name}: one project over time — its results by day, its reports' mix, two days compared, its
// scheduled regeneration with its runs, and its alert rule. The history is Gatehouse's own (lib/reports), so the
// page shows it even while the reports API is down.
import type { Metadata } from "next";
import Link from "next/link";

import { TrendRange } from "@/components/portal/trend-range";
import { Card } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { ResultChart } from "@/components/ui/result-chart";
import { TrendChart } from "@/components/ui/trend-chart";
import { getServerContext } from "@/lib/auth/access";
import { requirePageUser } from "@/lib/auth/current-user";
import { can } from "@/lib/auth/permissions";
import { projectFromSegment, projectOverviewHref, trendDaysParam } from "@/lib/portal/trends";
import { getAlertRule } from "@/lib/reports/alerts";
import { backgroundCallsPerMinute } from "@/lib/jobs/budget";
import { getSchedule, listRuns } from "@/lib/reports/schedules";
import { projectMixes, resultTrend } from "@/lib/reports/trends";

import { FreshSwrCache } from "../../../fresh-swr-cache";
import { AlertRuleForm, CompareView, SchedulePanel } from "./project-over-time";
import styles from "./project.module.css";

type Params = {
  params: Promise<{ project: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const { project } = await params;
  return { title: projectFromSegment(project).slice(0, 80) };
}

export default async function ProjectPage({ params, searchParams }: Params) {
  const user = await requirePageUser("reports:read");
  const project = projectFromSegment((await params).project);
  const days = trendDaysParam(await searchParams);
  const { db, config } = await getServerContext();
  const [trend, mixes, schedule, runs, rule] = await Promise.all([
    resultTrend(db, { days, project }),
    projectMixes(db),
    getSchedule(db, project),
    listRuns(db, project),
    getAlertRule(db, project),
  ]);
  const mix = mixes.find((row) => row.project === project);
  const canWrite = can(user, "projects:write");
  const { callsPerMinute, scheduleMaxShare } = config.reports;
  const href = (d: number) => projectOverviewHref(project, d);

  return (
    <>
      <PageHeader
        title={project}
        description="The project over time: results by day, two days compared, scheduled regeneration and alerts."
        back={<Link href="/projects">‹ Projects</Link>}
      />
      <div className={styles.grid}>
        <Card
          title="Results over time"
          asSection
          className={styles.wide}
          actions={<TrendRange current={days} href={href} />}
        >
          <TrendChart title={`${project}, the last ${days} days`} days={trend.days} />
          <p className={styles.note}>
            <Link href={`/reports?project=${encodeURIComponent(project)}`}>The project&apos;s reports</Link>
          </p>
        </Card>
        <Card title="Reports by their newest result" asSection>
          {mix ? (
            <ResultChart
              title={`${mix.reports} reports`}
              rows={[{ label: project, good: mix.good, decent: mix.decent, bad: mix.bad }]}
              scale="share"
            />
          ) : (
            <p className={styles.note}>
              Gatehouse has not recorded a result of this project yet: open its reports to start the history.
            </p>
          )}
        </Card>
        <FreshSwrCache>
          <Card title="Compare two days" asSection>
            <CompareView project={project} />
          </Card>
          <Card title="Scheduled regeneration" asSection className={styles.wide}>
            <SchedulePanel
              project={project}
              canWrite={canWrite}
              initial={{
                schedule,
                runs,
                max_share: scheduleMaxShare,
                calls_per_minute: backgroundCallsPerMinute(callsPerMinute, scheduleMaxShare),
              }}
            />
          </Card>
          <Card title="Alerts" asSection>
            <AlertRuleForm project={project} canWrite={canWrite} initial={rule} />
          </Card>
        </FreshSwrCache>
      </div>
    </>
  );
}
