// /items: the item service lists every item at once, so searching, filtering, sorting and paging happen here on
// the server (lib/portal/items.ts) and the browser receives one page of rows. ItemsView moves between views
// with server navigations (the previous rows stay while the next page renders).
import type { Metadata } from "next";

import { AreaNotConfigured } from "@/components/portal/area-not-configured";
import { FailureState } from "@/components/portal/failure-state";
import { PageHeader } from "@/components/ui/page-header";
import { requirePageUser } from "@/lib/auth/current-user";
import { loadFromUpstream } from "@/lib/portal/failures";
import { parseItemQuery, queryItems } from "@/lib/portal/items";
import { getUpstreams } from "@/lib/upstream";

import { ItemsView, type ItemRow } from "./items-view";

export const metadata: Metadata = { title: "Items" };

export default async function ItemsPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  await requirePageUser("items:read");
  const { items } = await getUpstreams();
  if (!items) return <AreaNotConfigured area="items" />;

  const query = parseItemQuery(await searchParams);
  const loaded = await loadFromUpstream("The items", () => items.listItems());

  return (
    <>
      <PageHeader
        title="Items"
        description="The items your seller account offers. Open one for its media, options and prices."
      />
      {loaded.ok ? <ItemsView {...toView(loaded.value, query)} /> : <FailureState failure={loaded.failure} />}
    </>
  );
}

function toView(all: Parameters<typeof queryItems>[0], query: Parameters<typeof queryItems>[1]) {
  const page = queryItems(all, query);
  const rows: ItemRow[] = page.rows.map((item) => ({
    id: item.id,
    name: item.name,
    category: item.category,
    subCategory: item.sub_category,
    price: item.price.regular,
    currency: item.currency,
    publishedAt: item.published_at,
    thumbnail: item.media.thumbnail,
  }));
  return {
    rows,
    total: page.total,
    page: page.page,
    lastPage: page.lastPage,
    categories: page.categories,
    allCount: all.length,
  };
}
