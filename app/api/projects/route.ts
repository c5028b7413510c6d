import { operations } from "@/lib/api/operations";
import { defineRoute, methodsNotAllowed } from "@/lib/api/route";

export const GET = defineRoute(operations.listProjects, async ({ client, query }) => ({
  status: 200,
  json: await client.listProjects(query),
}));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["GET"]);
