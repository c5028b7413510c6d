// A worker in a process of its own, for the test of a worker that dies: it takes items of the kind named in
// argv[3] from the Redis at argv[2], says "taken <id>" on stdout, and never finishes them — until the test kills it.
// Run with: node --conditions=react-server --import tsx tests/support/work-queue-child.ts <redis-url> <kind>
import { redisCluster } from "@/lib/cluster";
import { startWorkQueue } from "@/lib/jobs";

const [url, kind] = process.argv.slice(2);
if (!url || !kind) throw new Error("usage: work-queue-child.ts <redis-url> <kind>");
const cluster = redisCluster(url, "child");
void startWorkQueue(cluster, {
  kind,
  concurrency: 2,
  handle: async () => {
    process.stdout.write("taken\n");
    return new Promise(() => {});
  },
});
