// /admin/helpdesk: what each helpdesk needs to check purchase codes beside its tickets — for Zendesk and Freshdesk
// a token of the purchases:check scope alone (made here through the tokens API, its secret shown once), for Help
// Scout the Callback URL and a secret that signs its requests (made, rotated or removed here, shown once) — and
// each helpdesk's last lookups. Read here in the API's shapes; changes go through the API.
import type { Metadata } from "next";
import { headers } from "next/headers";

import { PageHeader } from "@/components/ui/page-header";
import { getServerContext } from "@/lib/auth/access";
import { requirePageUser } from "@/lib/auth/current-user";
import { portalOrigin } from "@/lib/auth/request";
import { helpdeskSettings } from "@/lib/purchases/helpscout";

import { FreshSwrCache } from "../../fresh-swr-cache";
import { HelpdeskView } from "./helpdesk-view";

export const metadata: Metadata = { title: "Helpdesk" };

export default async function HelpdeskPage() {
  await requirePageUser("webhooks:manage");
  const [{ db, config }, headerList] = await Promise.all([getServerContext(), headers()]);
  const settings = await helpdeskSettings(db, portalOrigin(headerList, config.edge) ?? "");
  return (
    <>
      <PageHeader
        title="Helpdesk"
        description="Check purchase codes beside your helpdesk's tickets: each helpdesk asks Gatehouse with its own credential, checks only codes, and every check is kept in the history with its ticket."
      />
      <FreshSwrCache>
        <HelpdeskView initialSettings={settings} />
      </FreshSwrCache>
    </>
  );
}
