import { sqliteBackend } from "@/tests/support/store-backends";

import { demoAccountsSuite } from "./demo-accounts.suite";

demoAccountsSuite(sqliteBackend);
