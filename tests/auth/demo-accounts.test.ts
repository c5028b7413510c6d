import { sqliteBackend } from "../db/support/backends";

import { demoAccountsSuite } from "./demo-accounts.suite";

demoAccountsSuite(sqliteBackend);
