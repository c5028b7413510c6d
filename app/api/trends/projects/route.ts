import { operations } from "@/lib/api/operations";
import { defineRoute, ok } from "@/lib/api/route";
import { methodsNotAllowed } from "@/lib/api/methods";
import { projectMixes } from "@/lib/reports/trends";

export const GET = defineRoute(operations.projectMixes, async ({ server }) => ok(await projectMixes(server.db)));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["GET"]);
