// Schema changes, in code so Next's bundler ships them (no migration folder read at run time). Append new
// migrations with a name that sorts after the last one; never edit one that has shipped.
import type { ColumnDefinitionBuilder, Kysely, Migration } from "kysely";

export type Dialect = "sqlite" | "postgres";

export function migrations(dialect: Dialect): Record<string, Migration> {
  // The only dialect-specific piece: an auto-increment primary key for the append-only logs.
  const logIdType = dialect === "postgres" ? "serial" : "integer";
  const logId = (c: ColumnDefinitionBuilder) =>
    dialect === "postgres" ? c.primaryKey() : c.primaryKey().autoIncrement();

  return {
    "2025-01-01-001-users-audit-throttle": {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable("users")
          .addColumn("id", "text", (c) => c.primaryKey())
          .addColumn("email", "text", (c) => c.notNull().unique())
          .addColumn("name", "text", (c) => c.notNull())
          .addColumn("role", "text", (c) => c.notNull())
          .addColumn("password_hash", "text", (c) => c.notNull())
          .addColumn("disabled", "integer", (c) => c.notNull().defaultTo(0))
          .addColumn("session_version", "integer", (c) => c.notNull().defaultTo(1))
          .addColumn("created_at", "text", (c) => c.notNull())
          .addColumn("updated_at", "text", (c) => c.notNull())
          .execute();

        await db.schema
          .createTable("audit_log")
          .addColumn("id", logIdType, logId)
          .addColumn("at", "text", (c) => c.notNull())
          .addColumn("user_id", "text")
          .addColumn("user_email", "text")
          .addColumn("action", "text", (c) => c.notNull())
          .addColumn("target_type", "text")
          .addColumn("target_id", "text")
          .addColumn("outcome", "text", (c) => c.notNull())
          .addColumn("request_id", "text")
          .addColumn("detail", "text")
          .execute();
        await db.schema.createIndex("audit_log_at").on("audit_log").columns(["at", "id"]).execute();
        await db.schema.createIndex("audit_log_user_id_at").on("audit_log").columns(["user_id", "at"]).execute();
        await db.schema.createIndex("audit_log_user_email_at").on("audit_log").columns(["user_email", "at"]).execute();
        await db.schema.createIndex("audit_log_action_at").on("audit_log").columns(["action", "at"]).execute();

        await db.schema
          .createTable("login_failures")
          .addColumn("id", logIdType, logId)
          .addColumn("email", "text", (c) => c.notNull())
          .addColumn("ip", "text")
          .addColumn("at", "text", (c) => c.notNull())
          .execute();
        await db.schema.createIndex("login_failures_email_at").on("login_failures").columns(["email", "at"]).execute();
        await db.schema.createIndex("login_failures_ip_at").on("login_failures").columns(["ip", "at"]).execute();
        await db.schema.createIndex("login_failures_at").on("login_failures").column("at").execute();
      },
      async down(db: Kysely<unknown>) {
        await db.schema.dropTable("login_failures").execute();
        await db.schema.dropTable("audit_log").execute();
        await db.schema.dropTable("users").execute();
      },
    },
  };
}

