// Report results as horizontal stacked bars (good / decent / bad), one bar per row: "All projects", then one
// per project. Plain SVG, no library. The SVG is decoration for sighted readers; the numbers are in a table
// (visually hidden unless showTable) that screen readers read, and each bar has its counts written under it,
// so colour never carries the meaning alone. Server-renderable.
import { Fragment, useId } from "react";

import { REPORT_RESULTS } from "@/lib/contract/values";

import { RESULT_LABELS } from "./badge";
import { ResultLegend } from "./result-legend";
import { ResultCountsTable, resultTotal } from "./result-counts-table";
import styles from "./result-chart.module.css";
import resultColours from "./result-colours.module.css";

export interface ResultCounts {
  /** Row name, e.g. "All projects" or a project name. */
  label: string;
  good: number;
  decent: number;
  bad: number;
}

export interface ResultChartProps {
  /** Says what is counted, e.g. "Reports by result". */
  title: string;
  rows: readonly ResultCounts[];
  /** "count" (default): bar length is the number of reports, so rows compare; "share": every bar is full width. */
  scale?: "count" | "share";
  /** Show the numbers table to everyone, not only to screen readers. */
  showTable?: boolean;
}

const VIEW_WIDTH = 1000;
const SEGMENT_GAP = 3; // a sliver of background between segments, so neighbours are told apart without colour

const total = resultTotal;

/** Each segment's x and width in a VIEW_WIDTH-wide bar. Exported for tests. */
export function barSegments(row: ResultCounts, longestTotal: number) {
  const rowTotal = total(row);
  const span = longestTotal > 0 ? (rowTotal / longestTotal) * VIEW_WIDTH : 0;
  let x = 0;
  return REPORT_RESULTS.map((result) => {
    const width = rowTotal > 0 ? (row[result] / rowTotal) * span : 0;
    const segment = {
      result,
      count: row[result],
      x,
      width: Math.max(0, width - (width > SEGMENT_GAP * 2 ? SEGMENT_GAP : 0)),
    };
    x += width;
    return segment;
  }).filter((segment) => segment.count > 0);
}

export function ResultChart({ title, rows, scale = "count", showTable = false }: ResultChartProps) {
  const tableId = useId();
  const longest = Math.max(0, ...rows.map(total));

  return (
    <figure className={styles.figure} aria-labelledby={`${tableId}-caption`}>
      <figcaption id={`${tableId}-caption`} className={styles.caption}>
        {title}
      </figcaption>
      <ResultLegend />
      <div className={styles.rows} aria-hidden="true">
        {rows.map((row) => (
          <Row key={row.label} row={row} longest={scale === "share" ? total(row) : longest} />
        ))}
        {/* One scale for every bar, labelled: a bar's length is its number of reports against the longest. */}
        {rows.length > 0 ? (
          <>
            <span className={styles.scaleName}>{scale === "share" ? "Share" : "Reports"}</span>
            <span className={`${styles.scale} tabular-nums`}>
              <span>0</span>
              <span>{scale === "share" ? "50%" : Math.round(longest / 2)}</span>
              <span>{scale === "share" ? "100%" : longest}</span>
            </span>
          </>
        ) : null}
      </div>
      {/* Hidden through a wrapper: a <table> ignores the width and overflow that hide it. */}
      <div className={showTable ? undefined : "visually-hidden"}>
        <ResultCountsTable caption={title} rowHeader="Group" rows={rows} className={styles.table} />
      </div>
    </figure>
  );
}

function Row({ row, longest }: { row: ResultCounts; longest: number }) {
  const rowTotal = total(row);
  return (
    <>
      <span className={styles.label}>{row.label}</span>
      <span className={styles.barCell}>
        <svg className={styles.bar} viewBox={`0 0 ${VIEW_WIDTH} 20`} preserveAspectRatio="none" focusable="false">
          <rect className={styles.track} x={0} y={0} width={VIEW_WIDTH} height={20} />
          {barSegments(row, longest).map((segment) => (
            <rect
              key={segment.result}
              className={resultColours[segment.result]}
              x={segment.x}
              y={0}
              width={segment.width}
              height={20}
            >
              <title>{`${RESULT_LABELS[segment.result]}: ${segment.count}`}</title>
            </rect>
          ))}
        </svg>
        <span className={`${styles.counts} tabular-nums`}>
          {rowTotal === 0
            ? "No reports"
            : `${rowTotal} total · ${REPORT_RESULTS.map((result) => `${RESULT_LABELS[result]} ${row[result]}`).join(" · ")}`}
        </span>
      </span>
    </>
  );
}

/**
 * What a ResultChart looks like while it loads: the same caption, legend, rows (grey bars) and scale, so that a
 * chart of `rows` rows takes exactly its place. Give the most rows the chart may have.
 */
export function ResultChartPlaceholder({ title, rows }: { title: string; rows: number }) {
  return (
    <div className={styles.figure} aria-hidden="true" aria-busy="true">
      <span className={styles.caption}>{title}</span>
      <ResultLegend />
      <div className={styles.rows}>
        {Array.from({ length: rows }, (_, index) => (
          <Fragment key={index}>
            <span className={styles.label}>
              <span className={styles.pendingText}>Loading</span>
            </span>
            <span className={styles.barCell}>
              <span className={`${styles.bar} ${styles.pendingBar}`} />
              <span className={styles.counts}>&nbsp;</span>
            </span>
          </Fragment>
        ))}
        <span className={styles.scaleName}>&nbsp;</span>
        <span className={styles.scale}>&nbsp;</span>
      </div>
    </div>
  );
}
