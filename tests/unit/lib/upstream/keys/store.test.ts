import { sqliteBackend } from "@/tests/support/store-backends";

import { upstreamKeysSuite } from "./store.suite";

// PostgreSQL: tests/unit/lib/db/postgres.test.ts runs the same suite.
upstreamKeysSuite(sqliteBackend);
