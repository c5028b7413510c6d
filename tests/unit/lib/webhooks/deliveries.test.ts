import { sqliteBackend } from "@/tests/support/store-backends";

import { deliveriesSuite } from "./deliveries.suite";

deliveriesSuite(sqliteBackend);
