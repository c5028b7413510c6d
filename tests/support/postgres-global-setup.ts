// vitest's global setup (vitest.config.mts): one throwaway PostgreSQL cluster for the whole run, named to every
// test file through TEST_POSTGRES_URL (the workers inherit this process's environment), so that each file that
// needs PostgreSQL creates its own fresh databases there instead of running initdb and starting a cluster of its own
// (./postgres.ts). A run given TEST_POSTGRES_URL keeps that server.
import { startPostgresCluster } from "./postgres";

export default async function setup(): Promise<(() => Promise<void>) | undefined> {
  if (process.env.TEST_POSTGRES_URL) return undefined;
  // Three files at a time (maxWorkers), each with up to a few servers and pools of its own: more than the
  // default 100 connections one file's cluster had.
  const cluster = await startPostgresCluster({ maxConnections: 400 });
  process.env.TEST_POSTGRES_URL = cluster.url;
  return async () => {
    delete process.env.TEST_POSTGRES_URL;
    await cluster.stop();
  };
}
