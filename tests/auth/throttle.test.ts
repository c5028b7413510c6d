import { sqliteBackend } from "../db/support/backends";

import { throttleSuite } from "./throttle.suite";

throttleSuite(sqliteBackend);
