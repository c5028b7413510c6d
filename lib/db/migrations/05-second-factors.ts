// Second factors for local accounts (issue 36, from 2027-01-05): passkeys, the authenticator app's secret, recovery
// codes, the WebAuthn challenges in flight, and the admin's policy. New migrations are appended here.
import type { Kysely, Migration } from "kysely";

export function secondFactors(): Record<string, Migration> {
  return {
    // - passkeys: a person's WebAuthn credentials (several, each named), with the public key and the signature
    //   counter the authenticator last reported.
    // - totp_factors: his authenticator app's secret (sealed), confirmed once he typed a code, and the last time
    //   step used (a code is used once).
    // - recovery_codes: ten single-use codes, kept hashed.
    // - auth_challenges: a WebAuthn challenge in flight (registration, sign-in, second step, step-up), used once and
    //   within minutes, in the store so that any instance can check the answer.
    // - sign_in_settings: the admin's policy (one row, id "policy"; "off" until then).
    "2027-01-05-001-second-factors": {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable("passkeys")
          .addColumn("id", "text", (c) => c.primaryKey())
          .addColumn("user_id", "text", (c) => c.notNull())
          .addColumn("credential_id", "text", (c) => c.notNull().unique())
          .addColumn("public_key", "text", (c) => c.notNull())
          .addColumn("counter", "integer", (c) => c.notNull().defaultTo(0))
          .addColumn("transports", "text", (c) => c.notNull().defaultTo("[]"))
          .addColumn("device_type", "text", (c) => c.notNull().defaultTo("singleDevice"))
          .addColumn("backed_up", "integer", (c) => c.notNull().defaultTo(0))
          .addColumn("name", "text", (c) => c.notNull())
          .addColumn("created_at", "text", (c) => c.notNull())
          .addColumn("last_used_at", "text")
          .execute();
        await db.schema.createIndex("passkeys_user").on("passkeys").column("user_id").execute();
        await db.schema
          .createTable("totp_factors")
          .addColumn("user_id", "text", (c) => c.primaryKey())
          .addColumn("secret_sealed", "text", (c) => c.notNull())
          .addColumn("confirmed_at", "text")
          .addColumn("last_used_step", "integer")
          .addColumn("created_at", "text", (c) => c.notNull())
          .execute();
        await db.schema
          .createTable("recovery_codes")
          .addColumn("id", "text", (c) => c.primaryKey())
          .addColumn("user_id", "text", (c) => c.notNull())
          .addColumn("code_hash", "text", (c) => c.notNull())
          .addColumn("used_at", "text")
          .addColumn("created_at", "text", (c) => c.notNull())
          .execute();
        await db.schema.createIndex("recovery_codes_user").on("recovery_codes").column("user_id").execute();
        await db.schema
          .createTable("auth_challenges")
          .addColumn("id", "text", (c) => c.primaryKey())
          .addColumn("challenge", "text", (c) => c.notNull().unique())
          .addColumn("purpose", "text", (c) => c.notNull())
          .addColumn("user_id", "text")
          .addColumn("expires_at", "text", (c) => c.notNull())
          .addColumn("used_at", "text")
          .addColumn("created_at", "text", (c) => c.notNull())
          .execute();
        await db.schema.createIndex("auth_challenges_expires").on("auth_challenges").column("expires_at").execute();
        await db.schema
          .createTable("sign_in_settings")
          .addColumn("id", "text", (c) => c.primaryKey())
          .addColumn("second_factor_policy", "text", (c) => c.notNull())
          .addColumn("updated_at", "text", (c) => c.notNull())
          .addColumn("updated_by", "text")
          .execute();
      },
      async down(db: Kysely<unknown>) {
        for (const table of ["sign_in_settings", "auth_challenges", "recovery_codes", "totp_factors", "passkeys"])
          await db.schema.dropTable(table).execute();
      },
    },
  };
}
