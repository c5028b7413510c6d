import { sqliteBackend } from "../db/support/backends";

import { auditSuite } from "./audit.suite";

auditSuite(sqliteBackend);
