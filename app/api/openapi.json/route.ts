import { operations } from "@/lib/api/operations";
import { openApiDocument } from "@/lib/api/openapi";
import { defineRoute } from "@/lib/api/route";
import { methodsNotAllowed } from "@/lib/api/methods";

export const GET = defineRoute(operations.openapi, async () => ({ status: 200, json: openApiDocument() }));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["GET"]);
