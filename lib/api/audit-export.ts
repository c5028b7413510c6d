// GET /api/admin/audit/export: the audit log for a range, any size, as newline-delimited JSON (each line what
// GET /api/admin/audit shows for a row) or CSV, in the order written (by id). Streamed page by page as the client reads
// (lib/paged-stream.ts), so memory holds one page however many rows the range has.
import "server-only";

import { auditRowsAfter, type AuditFilter, type AuditRecord } from "@/lib/auth/audit";
import type { AUDIT_EXPORT_FORMATS } from "@/lib/contract/audit";
import { CSV_BOM, csvLine } from "@/lib/csv";
import type { Db } from "@/lib/db";
import { pagedStream } from "@/lib/db/paged-stream";

import { auditRecordOutput } from "./accounts";

/** Rows read from the store at a time. */
const EXPORT_PAGE_ROWS = 1000;

const CSV_COLUMNS = [
  "id",
  "at",
  "user_id",
  "user_email",
  "user_name",
  "action",
  "target_type",
  "target_id",
  "target_label",
  "outcome",
  "request_id",
  "summary",
  "count",
  "last_at",
  "detail",
] as const;

function csvRow(record: AuditRecord): string {
  const row = auditRecordOutput(record);
  return csvLine([
    row.id,
    row.at,
    row.user_id,
    row.user_email,
    row.user_name,
    row.action,
    row.target?.type,
    row.target?.id,
    row.target?.label,
    row.outcome,
    row.request_id,
    row.summary,
    row.count,
    row.last_at,
    row.detail === null ? null : JSON.stringify(row.detail),
  ]);
}

export function auditExport(
  db: Db,
  filter: Omit<AuditFilter, "page" | "perPage">,
  format: (typeof AUDIT_EXPORT_FORMATS)[number],
  { pageRows = EXPORT_PAGE_ROWS }: { pageRows?: number } = {},
): { body: ReadableStream<Uint8Array>; contentType: string; fileName: string } {
  const csv = format === "csv";
  const body = pagedStream<AuditRecord>({
    ...(csv ? { head: CSV_BOM + csvLine(CSV_COLUMNS) } : {}),
    pageRows,
    failureEvent: "audit_export_failed",
    page: (last, limit) => auditRowsAfter(db, filter, last?.id ?? 0, limit),
    encode: (rows) =>
      csv ? rows.map(csvRow).join("") : rows.map((row) => `${JSON.stringify(auditRecordOutput(row))}\n`).join(""),
  });
  return {
    body,
    contentType: csv ? "text/csv; charset=utf-8" : "application/x-ndjson; charset=utf-8",
    fileName: `gatehouse-audit.${csv ? "csv" : "ndjson"}`,
  };
}
