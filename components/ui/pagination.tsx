// Page links (Previous, numbers with ellipses, Next). Real links built by hrefFor(page), so Back, new tabs
// and shared URLs work; the current page carries aria-current="page". Server-renderable.
import Link from "next/link";

import styles from "./pagination.module.css";

export type PageItem = number | "gap";

/**
 * The page numbers to show: always the first and last, `siblings` pages each side of the current one, and a
 * "gap" for each run of two or more hidden pages (a single hidden page is shown instead of an ellipsis).
 */
export function pageItems(page: number, lastPage: number, siblings = 1): PageItem[] {
  const last = Math.max(1, Math.floor(lastPage));
  const current = Math.min(Math.max(1, Math.floor(page)), last);
  const shown = new Set<number>([1, last]);
  for (let p = current - siblings; p <= current + siblings; p++) if (p >= 1 && p <= last) shown.add(p);
  const sorted = [...shown].sort((a, b) => a - b);
  const items: PageItem[] = [];
  let previous = 0;
  for (const p of sorted) {
    if (p - previous === 2) items.push(previous + 1);
    else if (p - previous > 2) items.push("gap");
    items.push(p);
    previous = p;
  }
  return items;
}

export interface PaginationProps {
  page: number;
  lastPage: number;
  /** The URL of a page, keeping the other query parameters, e.g. (p) => `/reports?${withPage(p)}`. */
  hrefFor: (page: number) => string;
  /** With total and perPage, a line such as "Showing 11–20 of 245" is shown. */
  total?: number;
  perPage?: number;
  /** What is being paged, for the nav's name, e.g. "Reports pages". */
  label?: string;
  /**
   * Takes over same-tab navigation (from a client component), e.g. to update the URL with history.pushState
   * and fetch the page with SWR instead of rendering it on the server. The links keep their real href, so
   * new tabs, copied links and Back behave as before.
   */
  onPageChange?: (page: number) => void;
}

export function Pagination({
  page,
  lastPage,
  hrefFor,
  total,
  perPage,
  label = "Pagination",
  onPageChange,
}: PaginationProps) {
  const last = Math.max(1, lastPage);
  const current = Math.min(Math.max(1, page), last);
  const showing =
    total !== undefined && perPage !== undefined && total > 0
      ? `Showing ${(current - 1) * perPage + 1}–${Math.min(current * perPage, total)} of ${total}`
      : undefined;
  // Link's onNavigate runs only for a plain same-tab click, never for Ctrl/Cmd-click or a new tab.
  const navigate = (target: number) =>
    onPageChange
      ? (event: { preventDefault(): void }) => {
          event.preventDefault();
          onPageChange(target);
        }
      : undefined;

  return (
    <nav aria-label={label} className={styles.nav}>
      {showing ? <p className={styles.summary}>{showing}</p> : null}
      <ul className={styles.list}>
        <li>
          {current > 1 ? (
            <Link className={styles.link} href={hrefFor(current - 1)} rel="prev" onNavigate={navigate(current - 1)}>
              <span aria-hidden="true">‹ </span>Previous
            </Link>
          ) : (
            <span className={styles.disabled} aria-disabled="true">
              <span aria-hidden="true">‹ </span>Previous
            </span>
          )}
        </li>
        {pageItems(current, last).map((item, index) =>
          item === "gap" ? (
            <li key={`gap-${index}`} className={styles.gapItem} aria-hidden="true">
              <span className={styles.gap}>…</span>
            </li>
          ) : (
            <li key={item} className={item === current ? undefined : styles.number}>
              <Link
                className={styles.link}
                href={hrefFor(item)}
                onNavigate={navigate(item)}
                aria-current={item === current ? "page" : undefined}
                aria-label={item === current ? `Page ${item} of ${last}` : `Page ${item}`}
              >
                {item === current ? (
                  <>
                    <span className={styles.compact} aria-hidden="true">
                      Page{" "}
                    </span>
                    {item}
                    <span className={styles.compact} aria-hidden="true">
                      {" "}
                      of {last}
                    </span>
                  </>
                ) : (
                  item
                )}
              </Link>
            </li>
          ),
        )}
        <li>
          {current < last ? (
            <Link className={styles.link} href={hrefFor(current + 1)} rel="next" onNavigate={navigate(current + 1)}>
              Next<span aria-hidden="true"> ›</span>
            </Link>
          ) : (
            <span className={styles.disabled} aria-disabled="true">
              Next<span aria-hidden="true"> ›</span>
            </span>
          )}
        </li>
      </ul>
    </nav>
  );
}
