// The last 30 days of checks per item, on /purchases: which items bring the most support requests. Read from the
// history store by the page (lib/purchases/checks-per-item.ts); rendered on the server.
import Link from "next/link";

import { DataTable, type Column } from "@/components/ui/data-table";
import { EmptyState } from "@/components/ui/empty-state";
import type { ChecksPerItem, ItemCheckCounts } from "@/lib/purchases/checks-per-item";

import styles from "./purchases.module.css";

function columns(linkItems: boolean): ReadonlyArray<Column<ItemCheckCounts>> {
  return [
    {
      id: "item",
      header: "Item",
      rowHeader: true,
      priority: "primary",
      cell: (row) => {
        const name = row.item_name ?? `Item ${row.item_id}`;
        return linkItems ? <Link href={`/items/${row.item_id}`}>{name}</Link> : name;
      },
    },
    { id: "valid", header: "Valid", align: "end", cell: (row) => row.valid },
    { id: "support_expired", header: "Valid, support expired", align: "end", cell: (row) => row.support_expired },
    { id: "invalid", header: "Invalid", align: "end", cell: (row) => row.invalid },
    {
      id: "history",
      header: "History",
      cell: (row) => <Link href={`/purchases/history?item_id=${row.item_id}`}>Checks of this item</Link>,
    },
  ];
}

export function ItemChecks({ perItem, days, linkItems }: { perItem: ChecksPerItem; days: number; linkItems: boolean }) {
  const { invalid, failed } = perItem.unattributed;
  return (
    <section aria-labelledby="item-checks" className={styles.itemChecks}>
      <h2 id="item-checks">Checks per item, last {days} days</h2>
      <DataTable
        caption={`Purchase checks per item in the last ${days} days`}
        captionHidden
        columns={columns(linkItems)}
        rows={perItem.items}
        rowKey={(row) => row.item_id}
        empty={
          <EmptyState title="No valid purchases checked yet">
            Each item whose purchase codes are checked here is counted.
          </EmptyState>
        }
      />
      <p className={styles.history}>
        Most checked first. Invalid counts checks of codes that were valid for the item in the same days.
        {invalid + failed > 0
          ? ` Not tied to an item: ${invalid} invalid and ${failed} failed ${invalid + failed === 1 ? "check" : "checks"}.`
          : ""}
      </p>
    </section>
  );
}
