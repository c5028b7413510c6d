// /admin/upstream, "Upstream connections": for each area its base URL, the key's fingerprint and last 4
// characters (never the key), where it is kept (environment or portal), who set it and when, the keys stored
// in the portal (to undo a rotation), and the area's health. Read here in the API's shapes; changes go through
// the admin API (/api/admin/upstream-keys).
import type { Metadata } from "next";

import { PageHeader } from "@/components/ui/page-header";
import { areaStatus } from "@/lib/api/upstream-keys";
import { getServerContext } from "@/lib/auth/access";
import { requirePageUser } from "@/lib/auth/current-user";

import { FreshSwrCache } from "../../fresh-swr-cache";
import { UpstreamView } from "./upstream-view";

export const metadata: Metadata = { title: "Upstream connections" };

export default async function UpstreamConnectionsPage() {
  await requirePageUser("upstream:manage");
  const { db, config } = await getServerContext();
  const next = config.demoKeys?.next;
  const areas = [await areaStatus(db, "reports"), await areaStatus(db, "items")];
  return (
    <>
      <PageHeader
        title="Upstream connections"
        description="The key Gatehouse uses for each upstream API, and how that API is doing. A new key is tested against the upstream before it is saved; every instance switches to it within a few seconds, and the old key is kept, disabled, so that a rotation can be undone. A key set in the environment always wins over one kept here."
      />
      {next ? (
        <p>
          In this demo the keys are kept here, so you can rotate them: the sandbox also accepts{" "}
          <code>{next.reports}</code> for the reports API and <code>{next.items}</code> for the item API.
        </p>
      ) : null}
      <FreshSwrCache>
        <UpstreamView initialAreas={areas} />
      </FreshSwrCache>
    </>
  );
}
