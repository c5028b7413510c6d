// The numbers behind a result chart: one row per group or day, a column per result and the total. Both charts
// (result-chart.tsx, trend-chart.tsx) render it, visibly or for screen readers only; each passes its own class.
import { REPORT_RESULTS, type ReportResult } from "@/lib/contract/values";

import { RESULT_LABELS } from "./badge";
import { RowsTable } from "./rows-table";

export type ResultCountsRow = { label: string } & Record<ReportResult, number>;

export function resultTotal(counts: Record<ReportResult, number>): number {
  return REPORT_RESULTS.reduce((sum, result) => sum + counts[result], 0);
}

export function ResultCountsTable({
  caption,
  rowHeader,
  rows,
  className,
}: {
  caption: string;
  rowHeader: string;
  rows: readonly ResultCountsRow[];
  className?: string;
}) {
  return (
    <RowsTable
      className={className}
      caption={caption}
      captionClassName="visually-hidden"
      columns={[rowHeader, ...REPORT_RESULTS.map((result) => RESULT_LABELS[result]), "Total"]}
      rows={rows}
      cells={(row) => [...REPORT_RESULTS.map((result) => row[result]), resultTotal(row)]}
    />
  );
}
