"use client";

// What the paged lists (reports, projects, audit log) share under their toolbar and table: a link back to the
// unfiltered list, and the page links — shown only when there is something to page through and the list did
// not fail. Links keep Back and new tabs working; a plain click moves in place.
import Link from "next/link";

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

/** "Clear the filters": a link to the list without any, followed in place (the list's own URL state). */
export function ClearFilters({ href, onClear, children }: { href: string; onClear: () => void; children: string }) {
  return (
    <p className={styles.clear}>
      <Link
        href={href}
        onNavigate={(event) => {
          event.preventDefault();
          onClear();
        }}
      >
        {children}
      </Link>
    </p>
  );
}
