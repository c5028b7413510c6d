// The tables as Kysely sees them. Portable on purpose (SQLite and PostgreSQL):
// - timestamps are ISO 8601 UTC strings from Date#toISOString() in TEXT columns: fixed width, so they sort and
//   compare correctly as strings in both databases, read well in any SQL shell, and avoid pg returning BIGINT
//   epoch milliseconds as strings;
// - booleans are INTEGER 0/1 (SQLite has no boolean type);
// - user ids are random UUIDs generated in code (no dialect-specific identity columns, not guessable);
// - append-only logs use an auto-increment id (declared per dialect in the migration) to order rows that share
//   a timestamp.
import type { Generated, Insertable, Selectable, Updateable } from "kysely";

import type { Role } from "@/lib/auth/permissions";

export interface UsersTable {
  id: string;
  email: string; // stored trimmed and lowercased: unique case-insensitively
  name: string;
  role: Role;
  password_hash: string; // "scrypt$N$r$p$salt$hash", see lib/auth/password.ts
  disabled: number; // 0 | 1
  session_version: number; // bumped to end every session of the user at once
  created_at: string;
  updated_at: string;
}

export interface AuditLogTable {
  id: Generated<number>;
  at: string;
  user_id: string | null; // null for actions without a signed-in user (CLI, failed logins of unknown emails)
  user_email: string | null; // kept as it was at the time, so the row reads the same after a user changes
  action: string;
  target_type: string | null;
  target_id: string | null;
  outcome: string;
  request_id: string | null;
  detail: string | null; // JSON object
}

export interface LoginFailuresTable {
  id: Generated<number>;
  email: string;
  ip: string | null;
  at: string;
}

export interface Database {
  users: UsersTable;
  audit_log: AuditLogTable;
  login_failures: LoginFailuresTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUserRow = Insertable<UsersTable>;
export type UserRowUpdate = Updateable<UsersTable>;
export type AuditRow = Selectable<AuditLogTable>;

