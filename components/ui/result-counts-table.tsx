// The numbers behind a result chart: one row per group or day, a column per result and the total. Both charts
// (result-chart.tsx, trend-chart.tsx) render it, visibly or for screen readers only; each passes its own class.
import { REPORT_RESULTS, type ReportResult } from "@/lib/contract/values";

import { RESULT_LABELS } from "./badge";

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
    <table className={className}>
      <caption className="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">{rowHeader}</th>
          {REPORT_RESULTS.map((result) => (
            <th key={result} scope="col">
              {RESULT_LABELS[result]}
            </th>
          ))}
          <th scope="col">Total</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.label}>
            <th scope="row">{row.label}</th>
            {REPORT_RESULTS.map((result) => (
              <td key={result}>{row[result]}</td>
            ))}
            <td>{resultTotal(row)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
