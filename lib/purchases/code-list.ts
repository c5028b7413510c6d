// A list of purchase codes as a seller brings it: pasted text (one code per line) or an uploaded .txt or .csv
// (a spreadsheet export). The codes come back raw, as written: the normaliser judges each one later, and the
// server merges duplicates, so this parser drops only blanks and keeps order and repeats.
//
// CSV (RFC 4180: quoted cells, "" for a quote, line breaks inside quotes; comma, semicolon or tab between cells)
// is read when the file name ends in .csv, or when the first line names a code column. The code column is the
// one headed purchase_code, "purchase code", code or license (in that order of preference, case and
// underscores ignored); else the first column. A first row that names no code column is still a header when
// its first cell has no digit while a later first cell has one (codes have digits, headings do not): this way a
// headerless export of codes loses none of them.
// Pure and dependency-free: the bulk page runs it in the browser.

import { isBlankPurchaseCode } from "./normalise";

export interface CodeList {
  codes: string[];
  format: "lines" | "csv";
  /** The code column's heading as written in the file; null without a header row (and for lines). */
  column: string | null;
}

/** Headings of a code column, best first, compared after lower-casing and turning _ and - into spaces. */
const CODE_HEADINGS = ["purchase code", "code", "license", "licence", "license code", "licence code"];

function headingRank(cell: string): number {
  const rank = CODE_HEADINGS.indexOf(
    cell
      .trim()
      .toLowerCase()
      .replace(/[\s_-]+/g, " "),
  );
  return rank === -1 ? Number.POSITIVE_INFINITY : rank;
}

function splitLines(text: string): string[] {
  return text.split(/\r\n|\r|\n/);
}

/** The separator of the first line: the most frequent of comma, semicolon and tab outside quotes. */
function detectSeparator(firstLine: string): string {
  const counts = new Map<string, number>([
    [",", 0],
    [";", 0],
    ["\t", 0],
  ]);
  let quoted = false;
  for (const char of firstLine) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && counts.has(char)) counts.set(char, (counts.get(char) ?? 0) + 1);
  }
  let best = ",";
  for (const [separator, count] of counts) if (count > (counts.get(best) ?? 0)) best = separator;
  return best;
}

/** RFC 4180 rows; lenient where spreadsheets are (a quote inside an unquoted cell is kept as is). */
function parseCsvRows(text: string, separator: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  let cellStarted = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i] as string;
    if (quoted) {
      if (char !== '"') cell += char;
      else if (text[i + 1] === '"') {
        cell += '"';
        i += 1;
      } else quoted = false;
    } else if (char === '"' && !cellStarted) {
      quoted = true;
      cellStarted = true;
    } else if (char === separator) {
      row.push(cell);
      cell = "";
      cellStarted = false;
    } else if (char === "\r" || char === "\n") {
      if (char === "\r" && text[i + 1] === "\n") i += 1;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
      cellStarted = false;
    } else {
      cell += char;
      // Spaces before an opening quote (`a, "b"`) still let the cell be quoted.
      if (char !== " ") cellStarted = true;
    }
  }
  if (cellStarted || cell !== "" || row.length > 0) {
    row.push(cell);
    rows.push(row);
  }
  return rows.filter((cells) => cells.some((value) => !isBlankPurchaseCode(value)));
}

/** The index of the best-named code column, or null when no heading names one. */
function codeColumn(header: readonly string[]): number | null {
  const ranks = header.map(headingRank);
  const best = Math.min(...ranks);
  return Number.isFinite(best) ? ranks.indexOf(best) : null;
}

const HAS_DIGIT = /\p{Nd}/u;

/** Reads pasted text or an uploaded .txt/.csv into raw codes; see the header for the rules. */
export function parseCodeList(text: string, options: { fileName?: string } = {}): CodeList {
  const body = text.replace(/^\ufeff/, "");
  const firstLine = splitLines(body).find((line) => !isBlankPurchaseCode(line)) ?? "";
  const separator = detectSeparator(firstLine);
  const rows = parseCsvRows(body, separator);
  const header = rows[0] ?? [];
  const namedColumn = codeColumn(header);
  if (namedColumn === null && !/\.csv$/i.test(options.fileName ?? "")) {
    return { codes: splitLines(body).filter((line) => !isBlankPurchaseCode(line)), format: "lines", column: null };
  }

  const column = namedColumn ?? 0;
  const hasHeader =
    namedColumn !== null ||
    (!HAS_DIGIT.test(header[0] ?? "") && rows.slice(1).some((cells) => HAS_DIGIT.test(cells[0] ?? "")));
  const codes = rows
    .slice(hasHeader ? 1 : 0)
    .map((cells) => cells[column] ?? "")
    .filter((cell) => !isBlankPurchaseCode(cell));
  return { codes, format: "csv", column: hasHeader ? (header[column] ?? "").trim() : null };
}
