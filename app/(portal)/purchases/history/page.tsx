// /purchases/history: every purchase check, single and bulk, newest first. Filters and paging live in the URL.
// The first view is read from the store here, in the API's shapes; the browser then pages and filters through
// GET /api/purchases/history. The item filter is a list of the seller's items when the item service answers
// (one cached call); otherwise an item id field.
import type { Metadata } from "next";

import { PageHeader } from "@/components/ui/page-header";
import { purchaseHistoryPage } from "@/lib/api/purchases";
import { getServerContext } from "@/lib/auth/access";
import { requirePageUser } from "@/lib/auth/current-user";
import { can } from "@/lib/auth/permissions";
import { getPersonTimeZone } from "@/lib/auth/time-zone";
import { loadFromUpstream } from "@/lib/portal/failures";
import { historyApiPath, parseHistoryParams } from "@/lib/portal/purchase-history-params";
import { getUpstreams } from "@/lib/upstream";

import { FreshSwrCache } from "../../fresh-swr-cache";
import { HistoryView, type ItemOption } from "./history-view";

export const metadata: Metadata = { title: "Purchase check history" };

/** Past this many items a select is no help; the id field is. */
const MAX_ITEM_OPTIONS = 300;

async function itemOptions(): Promise<ItemOption[] | null> {
  const { items } = await getUpstreams();
  if (!items) return null;
  const loaded = await loadFromUpstream("The items", () => items.listItems());
  if (!loaded.ok || loaded.value.length > MAX_ITEM_OPTIONS) return null;
  return loaded.value.map((item) => ({ id: item.id, name: item.name })).sort((a, b) => a.name.localeCompare(b.name));
}

export default async function PurchaseHistoryPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const user = await requirePageUser("purchases:validate");
  const query = parseHistoryParams(await searchParams);
  const [server, { zone }] = await Promise.all([getServerContext(), getPersonTimeZone()]);
  const [initialPage, items] = await Promise.all([
    purchaseHistoryPage(server, { ...query, time_zone: zone }),
    itemOptions(),
  ]);
  return (
    <>
      <PageHeader
        title="Purchase check history"
        description="Every purchase code checked here, one by one or in bulk, newest first. Codes are kept only as a fingerprint and their last 4 characters."
      />
      <FreshSwrCache>
        <HistoryView
          initialKey={historyApiPath(query, zone)}
          initialPage={initialPage}
          items={items}
          linkItems={can(user, "items:read")}
          codeFormat={server.config.purchases.codeFormat}
        />
      </FreshSwrCache>
    </>
  );
}
