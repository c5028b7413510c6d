// CSV for the portal's downloads (the purchase history, bulk results, the audit log), as RFC 4180 with CRLF line
// ends, which spreadsheets open without asking. Item names come from the upstream, codes from buyers, audit details
// from anyone: a cell that starts like a formula (= + - @, tab, carriage return) gets a leading apostrophe so that a
// spreadsheet shows it as text instead of running it (CSV injection).
export type CsvCell = string | number | boolean | null | undefined;

const FORMULA_START = /^[=+\-@\t\r]/;

function csvCell(value: CsvCell): string {
  if (value === null || value === undefined) return "";
  let text = String(value);
  if (typeof value === "string" && FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One CSV line, CRLF included. */
export function csvLine(cells: readonly CsvCell[]): string {
  return `${cells.map(csvCell).join(",")}\r\n`;
}

/**
 * A byte-order mark first, so that spreadsheet programs read the file as UTF-8 (item names are not ASCII);
 * CSV readers that follow the RFC ignore it.
 */
export const CSV_BOM = "\ufeff";
