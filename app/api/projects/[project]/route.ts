import { operations } from "@/lib/api/operations";
import { defineRoute, methodsNotAllowed, noContent } from "@/lib/api/route";

// Next hands over the decoded segment ("my shop"); the client encodes it again for the upstream.
export const DELETE = defineRoute(operations.deleteProject, async ({ client, params }) => {
  await client.deleteProject(params.project);
  return noContent();
});

export const { GET, POST, PUT, PATCH, OPTIONS } = methodsNotAllowed(["DELETE"]);
