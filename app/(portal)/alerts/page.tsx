// /alerts: regression alerts (a report's result dropped), newest first, filtered by status, project and the result
// dropped to — the filters are the URL, read with the API's own field rules (lib/contract/alerts.ts) and changed
// at once by AlertsView, as on every other list — each acknowledged on its own or all at once. The page is
// rendered here from Gatehouse's own record (no upstream call); a filter change renders it again.
import type { Metadata } from "next";

import { PageHeader } from "@/components/ui/page-header";
import { getServerContext } from "@/lib/auth/access";
import { requirePageUser } from "@/lib/auth/current-user";
import { parseAlertListParams } from "@/lib/portal/list-params";
import { alertProjects, listAlerts } from "@/lib/reports/alerts";

import { AlertsView } from "./alerts-view";

export const metadata: Metadata = { title: "Alerts" };

export default async function AlertsPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  await requirePageUser("reports:read");
  const query = parseAlertListParams(await searchParams);
  const { db } = await getServerContext();
  const [page, projects] = await Promise.all([listAlerts(db, query), alertProjects(db)]);

  return (
    <>
      <PageHeader
        title="Alerts"
        description="A report's result dropped: good to decent or bad, decent to bad. Each project's rule says which drops alert."
      />
      <AlertsView page={page} projects={projects} />
    </>
  );
}
