"use client";
// Results by day as stacked vertical bars (good at the bottom, then decent, then bad), one bar per day, on a
// labelled count axis. The SVG is for sighted readers (aria-hidden); the same numbers are a table that screen
// readers always read and anyone can show with "Show as table". The figure keeps its height whether the table
// is shown or not, and its placeholder (TrendChartPlaceholder) has the same height, so nothing shifts.
import { useId, useState } from "react";

import type { TrendDay } from "@/lib/contract/history";
import { REPORT_RESULTS } from "@/lib/contract/values";

import { RESULT_LABELS } from "./badge";
import { ResultLegend } from "./result-legend";
import { ResultCountsTable, resultTotal } from "./result-counts-table";
import resultColours from "./result-colours.module.css";
import styles from "./trend-chart.module.css";

export interface TrendChartProps {
  title: string;
  days: readonly TrendDay[];
}

const VIEW_HEIGHT = 120;

/** A round axis maximum at or above `max` (1, 2, 5, 10, 20, 50, …). Exported for tests. */
export function axisMax(max: number): number {
  if (max <= 0) return 1;
  const step = 10 ** Math.floor(Math.log10(max));
  for (const factor of [1, 2, 5, 10]) if (factor * step >= max) return factor * step;
  return 10 * step;
}

/** Each result's rectangle of one day's bar, bottom up, in a VIEW_HEIGHT-tall view. Exported for tests. */
export function dayStack(day: TrendDay, top: number) {
  let y = VIEW_HEIGHT;
  return REPORT_RESULTS.map((result) => {
    const height = (day[result] / top) * VIEW_HEIGHT;
    y -= height;
    return { result, count: day[result], y, height };
  }).filter((segment) => segment.count > 0);
}

const shortDay = (day: string) =>
  new Date(`${day}T00:00:00Z`).toLocaleDateString("en", { month: "short", day: "numeric", timeZone: "UTC" });

export function TrendChart({ title, days }: TrendChartProps) {
  const id = useId();
  const [showTable, setShowTable] = useState(false);
  const top = axisMax(Math.max(0, ...days.map(resultTotal)));
  const width = Math.max(days.length, 1) * 10;
  const sum = days.reduce((acc, day) => acc + resultTotal(day), 0);
  const first = days[0]?.day;
  const last = days[days.length - 1]?.day;

  return (
    <figure className={styles.figure} aria-labelledby={`${id}-caption`}>
      <div className={styles.head}>
        <figcaption id={`${id}-caption`} className={styles.caption}>
          {title}
        </figcaption>
        <button
          type="button"
          className={styles.toggle}
          aria-pressed={showTable}
          aria-controls={`${id}-table`}
          onClick={() => setShowTable((shown) => !shown)}
        >
          {showTable ? "Show as chart" : "Show as table"}
        </button>
      </div>
      <ResultLegend />
      <div className={styles.body}>
        <div className={showTable ? "visually-hidden" : styles.plot} aria-hidden="true">
          <div className={styles.axis}>
            <span>{top}</span>
            <span>{top / 2}</span>
            <span>0</span>
          </div>
          <div className={styles.chart}>
            <svg
              viewBox={`0 0 ${width} ${VIEW_HEIGHT}`}
              preserveAspectRatio="none"
              className={styles.svg}
              focusable="false"
            >
              <line className={styles.grid} x1={0} x2={width} y1={VIEW_HEIGHT / 2} y2={VIEW_HEIGHT / 2} />
              {days.map((day, index) =>
                dayStack(day, top).map((segment) => (
                  <rect
                    key={`${day.day}-${segment.result}`}
                    className={resultColours[segment.result]}
                    x={index * 10 + 1}
                    width={8}
                    y={segment.y}
                    height={segment.height}
                  >
                    <title>{`${day.day}: ${RESULT_LABELS[segment.result]} ${segment.count}`}</title>
                  </rect>
                )),
              )}
            </svg>
            <div className={styles.dates}>
              <span>{first ? shortDay(first) : ""}</span>
              <span>{last ? shortDay(last) : ""}</span>
            </div>
          </div>
        </div>
        <p className={styles.summary}>
          {sum === 0
            ? "No results recorded in this period."
            : `${sum} results recorded from ${first} to ${last}; axis: results a day.`}
        </p>
        {/* Focusable when shown: the table scrolls inside the chart's box, and a keyboard must reach it. */}
        <div
          id={`${id}-table`}
          className={showTable ? styles.tableWrap : "visually-hidden"}
          tabIndex={showTable ? 0 : undefined}
          role={showTable ? "region" : undefined}
          aria-label={showTable ? `${title}, by day` : undefined}
        >
          <ResultCountsTable
            caption={`${title}, by day`}
            rowHeader="Day"
            rows={days.map((day) => ({ ...day, label: day.day }))}
            className={styles.table}
          />
        </div>
      </div>
    </figure>
  );
}

/** What a trend chart looks like while it loads: the same height, so nothing moves when it arrives. */
export function TrendChartPlaceholder({ title }: { title: string }) {
  return (
    <div className={styles.figure} aria-busy="true">
      <div className={styles.head}>
        <span className={styles.caption}>{title}</span>
      </div>
      <p className="visually-hidden" role="status">
        Loading {title.toLowerCase()}…
      </p>
      <div className={`${styles.body} ${styles.placeholder}`} aria-hidden="true" />
    </div>
  );
}
