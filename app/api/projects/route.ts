import { operations } from "@/lib/api/operations";
import { defineRoute } from "@/lib/api/route";

export const GET = defineRoute(operations.listProjects, async ({ client, query }) => ({
  status: 200,
  json: await client.listProjects(query),
}));
