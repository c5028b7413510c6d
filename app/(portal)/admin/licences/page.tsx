// /admin/licences: licence activations as an admin sets them — per item, whether the licence API answers for it,
// the activations each licence type allows, the domains that never count and whether a refund releases them; and
// the public key that verifies every answer (base64 and PEM, to copy into the product) with the well-known URL it
// is published at. Read here in the API's shapes (GET /api/admin/licences); changes go through the API.
import type { Metadata } from "next";
import { headers } from "next/headers";

import { AreaNotConfigured } from "@/components/portal/area-not-configured";
import { FailureState } from "@/components/portal/failure-state";
import { PageHeader } from "@/components/ui/page-header";
import { licencesAdminState } from "@/lib/api/licence-staff";
import { getServerContext } from "@/lib/auth/access";
import { requirePageUser } from "@/lib/auth/current-user";
import { portalOrigin } from "@/lib/auth/request";
import { loadFromUpstream } from "@/lib/portal/failures";
import { getUpstreams } from "@/lib/upstream";

import { FreshSwrCache } from "../../fresh-swr-cache";
import { LicencesView } from "./licences-view";

export const metadata: Metadata = { title: "Licences" };

export default async function LicencesPage() {
  await requirePageUser("licences:manage");
  const { items } = await getUpstreams();
  if (!items) return <AreaNotConfigured area="items" />;
  const [server, headerList] = await Promise.all([getServerContext(), headers()]);
  const loaded = await loadFromUpstream("The items", () =>
    licencesAdminState(server, items, portalOrigin(headerList, server.config.edge)),
  );
  return (
    <>
      <PageHeader
        title="Licences"
        description="Let your products activate themselves with the buyer's purchase code: turn the licence API on per item, set how many sites each licence may activate, and give your product the public key that verifies Gatehouse's answers."
      />
      {loaded.ok ? (
        <FreshSwrCache>
          <LicencesView initialState={loaded.value} />
        </FreshSwrCache>
      ) : (
        <FailureState failure={loaded.failure} />
      )}
    </>
  );
}
