import { sqliteBackend } from "@/tests/support/store-backends";

import { tokensStoreSuite } from "./store.suite";

tokensStoreSuite(sqliteBackend);
