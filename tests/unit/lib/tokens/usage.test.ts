import { sqliteBackend } from "@/tests/support/store-backends";

import { tokenUsageSuite } from "./usage.suite";

tokenUsageSuite(sqliteBackend);
