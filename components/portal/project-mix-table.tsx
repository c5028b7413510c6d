"use client";
// Each project's reports by their newest result, sortable by any column (a button in each header, with
// aria-sort on the sorted one). The project links to its page.
import Link from "next/link";
import { useState } from "react";

import type { ProjectMix } from "@/lib/contract/history";
import {
  MIX_SORT_KEYS,
  MIX_SORT_LABELS,
  NO_PROJECT,
  percent,
  projectOverviewHref,
  sortMixes,
  type MixSortKey,
} from "@/lib/portal/trends";

import styles from "./project-mix-table.module.css";

export function ProjectMixTable({ rows, caption }: { rows: readonly ProjectMix[]; caption: string }) {
  const [sort, setSort] = useState<{ key: MixSortKey; direction: "asc" | "desc" }>({
    key: "reports",
    direction: "desc",
  });
  const sorted = sortMixes(rows, sort.key, sort.direction);
  const sortBy = (key: MixSortKey) =>
    setSort((current) => ({
      key,
      direction:
        current.key === key ? (current.direction === "asc" ? "desc" : "asc") : key === "project" ? "asc" : "desc",
    }));

  return (
    <div className={styles.wrap}>
      <table className={styles.table}>
        <caption className={styles.caption}>{caption}</caption>
        <thead>
          <tr>
            {MIX_SORT_KEYS.map((key) => (
              <th
                key={key}
                scope="col"
                aria-sort={sort.key === key ? (sort.direction === "asc" ? "ascending" : "descending") : undefined}
              >
                <button type="button" className={styles.sort} onClick={() => sortBy(key)}>
                  {MIX_SORT_LABELS[key]}
                  <span aria-hidden="true">{sort.key === key ? (sort.direction === "asc" ? " ▲" : " ▼") : ""}</span>
                </button>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {sorted.map((row) => (
            <tr key={row.project ?? ""}>
              <th scope="row">
                {row.project === null ? NO_PROJECT : <Link href={projectOverviewHref(row.project)}>{row.project}</Link>}
              </th>
              <td>{row.reports}</td>
              <td>{row.good}</td>
              <td>{row.decent}</td>
              <td>{row.bad}</td>
              <td>{percent(row.bad, row.reports)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
