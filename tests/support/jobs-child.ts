// A job runner in a process of its own, for the test of a process that dies: it runs jobs of the kind named in
// argv[4] on the provider named in argv[2] ("store": the store at the DATABASE_URL argv[3], its leases argv[5] ms
// long; "bullmq": the Redis at argv[3]), adds one (its payload { n: 1 }), says "taken" on stdout when it runs one,
// and never finishes it — until the test kills it.
// Run with: node --conditions=react-server --import tsx tests/support/jobs-child.ts <store|bullmq> <url> <kind> [lease ms]
import { z } from "zod";

import { redisCluster } from "@/lib/cluster";
import { parseDatabaseUrl } from "@/lib/config/store";
import { openDb } from "@/lib/db";
import { defineJob } from "@/lib/jobs";
import { startBullJobs } from "@/lib/jobs/bullmq";
import { startStoreJobs } from "@/lib/jobs/store";

const [provider, url, kind, leaseMs] = process.argv.slice(2);
if (!url || !kind || (provider !== "store" && provider !== "bullmq"))
  throw new Error("usage: jobs-child.ts <store|bullmq> <url> <kind>");
const never = defineJob({
  kind,
  payload: z.object({ n: z.number() }),
  concurrency: 2,
  handle: async () => {
    process.stdout.write("taken\n");
    return new Promise(() => {});
  },
});
const started =
  provider === "bullmq"
    ? startBullJobs(redisCluster(url, "child"), [never])
    : openDb(parseDatabaseUrl(url)).then((store) =>
        startStoreJobs(async () => store.db, [never], { leaseMs: Number(leaseMs) }),
      );
void started.then((jobs) => jobs.trigger(kind, { n: 1 }, { id: "from-child" }));
