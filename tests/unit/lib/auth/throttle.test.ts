import { sqliteBackend } from "@/tests/support/store-backends";

import { throttleSuite } from "./throttle.suite";

throttleSuite(sqliteBackend);
