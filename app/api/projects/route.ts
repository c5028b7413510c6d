import { operations } from "@/lib/api/operations";
import { defineRoute } from "@/lib/api/route";
import { methodsNotAllowed } from "@/lib/api/methods";

export const GET = defineRoute(operations.listProjects, async ({ client, query }) => ({
  status: 200,
  json: await client.listProjects(query),
}));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["GET"]);
