// /admin/webhooks: the endpoints events are sent to — add one (its secret shown once), pause, enable again after a
// disable for failing, rotate its secret, send it a test event, remove it — and each endpoint's delivery log with
// "Send again". In the demo, the form offers the embedded sandbox's receiver on loopback.
import type { Metadata } from "next";

import { PageHeader } from "@/components/ui/page-header";
import { getServerContext } from "@/lib/auth/access";
import { requirePageUser } from "@/lib/auth/current-user";
import { listEndpoints, webhookOutput } from "@/lib/webhooks/endpoints";

import { FreshSwrCache } from "../../fresh-swr-cache";
import { WebhooksView } from "./webhooks-view";

export const metadata: Metadata = { title: "Webhooks" };

export default async function WebhooksPage() {
  await requirePageUser("webhooks:manage");
  const { db, config } = await getServerContext();
  const endpoints = (await listEndpoints(db)).map((endpoint) => webhookOutput(endpoint));
  return (
    <>
      <PageHeader
        title="Webhooks"
        description="Gatehouse tells these endpoints when something happens, signed as the Standard Webhooks specification says. A delivery that fails is tried again for more than a day; an endpoint failing for three days is disabled."
      />
      <FreshSwrCache>
        <WebhooksView initialEndpoints={endpoints} demoReceiverUrl={config.webhooks.demoReceiverUrl} />
      </FreshSwrCache>
    </>
  );
}
