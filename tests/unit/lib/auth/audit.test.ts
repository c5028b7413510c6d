import { sqliteBackend } from "@/tests/support/store-backends";

import { auditSuite } from "./audit.suite";

auditSuite(sqliteBackend);
