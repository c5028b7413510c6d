// Schema changes, in code so Next's bundler ships them (no migration folder read at run time), in files by period:
// append a new migration to the last file with a name that sorts after the last one; never edit one that has shipped.
// 05-second-factors.ts (issue 36) and 06-notification-digests.ts were written side by side: whichever adds the next
// migration names it after both files' last.
import type { ColumnDefinitionBuilder, Migration } from "kysely";

import { accountsPurchases } from "./01-accounts-purchases";
import { reportsIntegrations } from "./02-reports-integrations";
import { keysJobs } from "./03-keys-jobs";
import { notifications } from "./04-notifications";
import { secondFactors } from "./05-second-factors";
import { notificationDigests } from "./06-notification-digests";
import { auditStreams } from "./07-audit-streams";
import { tokenQuotas } from "./08-token-quotas";

export type Dialect = "sqlite" | "postgres";

/** The only dialect-specific piece: an auto-increment primary key for the append-only logs. */
export interface DialectParts {
  logIdType: "serial" | "integer";
  logId: (column: ColumnDefinitionBuilder) => ColumnDefinitionBuilder;
}

export function migrations(dialect: Dialect): Record<string, Migration> {
  const parts: DialectParts = {
    logIdType: dialect === "postgres" ? "serial" : "integer",
    logId: (column) => (dialect === "postgres" ? column.primaryKey() : column.primaryKey().autoIncrement()),
  };
  return {
    ...accountsPurchases(parts),
    ...reportsIntegrations(parts),
    ...keysJobs(),
    ...notifications(),
    ...secondFactors(),
    ...notificationDigests(),
    ...auditStreams(parts),
    ...tokenQuotas(),
  };
}
