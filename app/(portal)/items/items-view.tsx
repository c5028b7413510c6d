"use client";
// The items list's controls and table. The server filtered and paged the rows (see page.tsx); every control
// changes the URL with a server navigation inside a transition, so the current rows stay, dimmed under a
// progress bar, until the next page has rendered.
import Link from "next/link";

import { MediaImage } from "@/components/media/media-image";
import { ButtonLink } from "@/components/ui/button-link";
import { DataTable, type Column } from "@/components/ui/data-table";
import { EmptyState } from "@/components/ui/empty-state";
import { LocalTime } from "@/components/ui/local-time";
import { Money } from "@/components/ui/money";
import { Pagination } from "@/components/ui/pagination";
import { PerPageSelect } from "@/components/ui/per-page-select";
import { SearchField } from "@/components/ui/search-field";
import { SelectField } from "@/components/ui/select-field";
import { FiltersSheet } from "@/components/ui/filters-sheet";
import {
  ITEM_SORT_FIRST_DIRECTION,
  itemQueryString,
  parseItemQuery,
  type ItemQuery,
  type ItemSortKey,
} from "@/lib/portal/items";
import { listFilters } from "@/lib/portal/list-params";
import { useListUrl } from "@/lib/portal/use-list-url";

import styles from "../lists.module.css";
import itemStyles from "./items.module.css";

export interface ItemRow {
  id: number;
  name: string;
  category: string;
  subCategory: string | null;
  price: number;
  currency: string;
  publishedAt: string;
  thumbnail: string | null;
}

export interface ItemsViewProps {
  rows: ItemRow[];
  total: number;
  page: number;
  lastPage: number;
  categories: string[];
  /** Items before search and filter. */
  allCount: number;
}

const COLUMNS: ReadonlyArray<Column<ItemRow, ItemSortKey>> = [
  {
    id: "thumbnail",
    header: <span className="visually-hidden">Thumbnail</span>,
    label: "",
    // On a phone the card leads with the name; 25 thumbnails there would cost more than they tell.
    deskOnly: true,
    cell: (item) => (
      <MediaImage
        src={item.thumbnail}
        alt=""
        width={64}
        height={36}
        fit="cover"
        className={itemStyles.thumb}
        fallback={null}
      />
    ),
  },
  {
    id: "name",
    header: "Name",
    sortKey: "name",
    rowHeader: true,
    priority: "primary",
    wrap: "wrap",
    cell: (item) => <Link href={`/items/${item.id}`}>{item.name}</Link>,
  },
  {
    id: "category",
    header: "Category",
    wrap: "wrap",
    cell: (item) => (item.subCategory ? `${item.category} › ${item.subCategory}` : item.category),
  },
  {
    id: "price",
    header: "Price",
    sortKey: "price",
    align: "end",
    wrap: "nowrap",
    cell: (item) => <Money amount={item.price} currency={item.currency} />,
  },
  {
    id: "published",
    header: "Published",
    sortKey: "published_at",
    firstDirection: ITEM_SORT_FIRST_DIRECTION.published_at,
    wrap: "nowrap",
    cell: (item) => <LocalTime iso={item.publishedAt} display="date" />,
  },
];

// The list's filters, named once: "Filters (N)" and the filtered state read them.
const FILTERS = listFilters<ItemQuery>(["category"], "search");

export function ItemsView({ rows, total, page, lastPage, categories, allCount }: ItemsViewProps) {
  const url = useListUrl<ItemQuery>(parseItemQuery, itemQueryString, "server");
  const { query } = url;
  const change = (patch: Partial<ItemQuery>) => ({ ...query, page: 1, ...patch });
  const filtered = FILTERS.filtered(query);
  const cleared = change({ search: "", category: "" });

  return (
    <section aria-label="Items list">
      <FiltersSheet
        label="Search and filters"
        activeCount={FILTERS.count(query)}
        onClear={() => url.push(change({ category: "" }))}
        showLabel={`Show ${total} ${total === 1 ? "item" : "items"}`}
        search={
          <SearchField
            label="Search items"
            hint="Name, category or tag"
            value={query.search}
            onSearch={(search) => url.replace(change({ search }))}
          />
        }
      >
        <SelectField
          name="category"
          label="Category"
          emptyOption="All categories"
          options={categories.map((category) => ({ value: category, label: category }))}
          value={query.category}
          onChange={(event) => url.push(change({ category: event.target.value }))}
        />
        <PerPageSelect value={query.perPage} onChange={(perPage) => url.push(change({ perPage }))} />
      </FiltersSheet>
      {filtered ? (
        <p className={styles.clear}>
          <Link href={url.hrefFor(cleared)} scroll={false}>
            Clear search and filters
          </Link>
        </p>
      ) : null}

      <p role="status" className="visually-hidden">
        {url.pending ? "Loading items…" : filtered ? `${total} of ${allCount} items match` : `${total} items`}
      </p>

      <DataTable
        caption="Items"
        captionHidden
        columns={COLUMNS}
        rows={rows}
        rowKey={(item) => item.id}
        sort={{ by: query.sort, direction: query.direction }}
        onSortChange={(next) => url.push(change({ sort: next.by, direction: next.direction }))}
        loading={url.pending}
        empty={
          allCount === 0 ? (
            <EmptyState title="No items yet" headingLevel={2}>
              The seller account has no items for sale.
            </EmptyState>
          ) : (
            <EmptyState
              title="No items match"
              headingLevel={2}
              action={<ButtonLink href={url.hrefFor(cleared)}>Clear search and filters</ButtonLink>}
            >
              Try another search or category.
            </EmptyState>
          )
        }
      />

      {total > 0 ? (
        <div className={styles.pagination}>
          <Pagination
            page={page}
            lastPage={lastPage}
            total={total}
            perPage={query.perPage}
            label="Items pages"
            hrefFor={(p) => url.hrefFor({ ...query, page: p })}
            onPageChange={(p) => url.push({ ...query, page: p })}
          />
        </div>
      ) : null}
    </section>
  );
}
