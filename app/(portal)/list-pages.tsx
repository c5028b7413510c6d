"use client";

// The page links under a paged list (reports, projects, audit log): shown only when there is something to page
// through and the list did not fail. Links keep Back and new tabs working; a plain click moves in place.
import { Pagination } from "@/components/ui/pagination";
import type { PageMeta } from "@/lib/contract/common";

import styles from "./lists.module.css";

export function ListPages({
  meta,
  failed,
  label,
  hrefFor,
  onPageChange,
}: {
  meta: PageMeta | undefined;
  failed: boolean;
  label: string;
  hrefFor: (page: number) => string;
  onPageChange: (page: number) => void;
}) {
  if (!meta || meta.total === 0 || failed) return null;
  return (
    <div className={styles.pagination}>
      <Pagination
        page={meta.page}
        lastPage={meta.last_page}
        total={meta.total}
        perPage={meta.per_page}
        label={label}
        hrefFor={hrefFor}
        onPageChange={onPageChange}
      />
    </div>
  );
}
