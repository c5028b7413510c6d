// An area's upstream traffic as a small bar chart — one bar per span, its errors in the danger colour on top of
// the requests that worked — with the same numbers as a table beside it (the table is what a screen reader
// reads; the chart is labelled by its caption and hidden from the accessibility tree). Server-renderable.
import type { ReactNode } from "react";

import styles from "./health-chart.module.css";
import { RowsTable } from "./rows-table";

export interface HealthPoint {
  from: string;
  requests: number;
  errors: number;
}

export interface HealthRow {
  label: string;
  requests: number;
  errors: number;
  errorRate: number;
  p50: number | null;
  p95: number | null;
}

const COLUMNS = ["Window", "Requests", "Errors", "Error rate", "p50", "p95"];
const WIDTH = 240;
const HEIGHT = 60;

const ms = (value: number | null) => (value === null ? "—" : `≤ ${value.toLocaleString("en")} ms`);
const percent = (rate: number) => `${(rate * 100).toFixed(rate > 0 && rate < 0.01 ? 2 : 1)}%`;

export function HealthChart({
  caption,
  points,
  rows,
  summary,
}: {
  caption: string;
  points: readonly HealthPoint[];
  rows: readonly HealthRow[];
  summary?: ReactNode;
}) {
  const max = Math.max(1, ...points.map((p) => p.requests));
  const barWidth = WIDTH / Math.max(1, points.length);
  return (
    <div className={styles.wrap}>
      <figure className={styles.figure}>
        <svg viewBox={`0 0 ${WIDTH} ${HEIGHT + 1}`} aria-hidden="true" focusable="false">
          {points.map((point, i) => {
            const total = (point.requests / max) * HEIGHT;
            const failed = (point.errors / max) * HEIGHT;
            const x = i * barWidth + 1;
            return (
              <g key={point.from}>
                <rect
                  className={styles.ok}
                  x={x}
                  y={HEIGHT - total}
                  width={Math.max(1, barWidth - 2)}
                  height={total - failed}
                />
                <rect
                  className={styles.error}
                  x={x}
                  y={HEIGHT - failed}
                  width={Math.max(1, barWidth - 2)}
                  height={failed}
                />
              </g>
            );
          })}
          <line className={styles.axis} x1={0} x2={WIDTH} y1={HEIGHT + 0.5} y2={HEIGHT + 0.5} />
        </svg>
        <figcaption className={styles.caption}>
          {caption}
          {summary}
        </figcaption>
      </figure>
      <RowsTable
        className={styles.table}
        caption="Upstream requests"
        captionClassName={styles.caption}
        columns={COLUMNS}
        rows={rows}
        cells={(row) => [
          row.requests.toLocaleString("en"),
          row.errors.toLocaleString("en"),
          percent(row.errorRate),
          ms(row.p50),
          ms(row.p95),
        ]}
      />
    </div>
  );
}
