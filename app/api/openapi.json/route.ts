import { operations } from "@/lib/api/operations";
import { openApiDocument } from "@/lib/api/openapi";
import { defineRoute, methodsNotAllowed } from "@/lib/api/route";

export const GET = defineRoute(operations.openapi, async () => ({ status: 200, json: openApiDocument() }));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["GET"]);
