// A table of numbers with a row header: a header row of columns, then one row per labelled row, its label the
// row's header. The charts render their numbers with it (health-chart.tsx, result-counts-table.tsx).
import type { ReactNode } from "react";

export function RowsTable<Row extends { label: string }>({
  caption,
  captionClassName,
  className,
  columns,
  rows,
  cells,
}: {
  caption: ReactNode;
  captionClassName?: string;
  className?: string;
  /** Every column's header, the row header's first. */
  columns: readonly ReactNode[];
  rows: readonly Row[];
  /** A row's cells after its label. */
  cells: (row: Row) => readonly ReactNode[];
}) {
  return (
    <table className={className}>
      <caption className={captionClassName}>{caption}</caption>
      <thead>
        <tr>
          {columns.map((column, index) => (
            <th key={index} scope="col">
              {column}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.label}>
            <th scope="row">{row.label}</th>
            {cells(row).map((cell, index) => (
              <td key={index}>{cell}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
