// The route table of docs/http-api.md, read from the API document the server serves (lib/api/openapi.ts, itself
// built from lib/api/operations): every route with what a session and a token need, what it does and its
// success. tests/docs/http-api.test.ts fails when the table in the doc is not this one;
// `npx tsx --conditions=react-server scripts/http-api-routes.ts` prints it to paste between its markers.
import { openApiDocument } from "@/lib/api/openapi";

interface DocumentOperation {
  summary: string;
  tags: string[];
  "x-permission": string;
  "x-token-scope"?: string | null;
  responses: Record<string, { description: string }>;
}

const cell = (text: string) => text.replace(/\|/g, "\\|");

const PERMISSION_WORDS: Record<string, string> = { public: "public", signed_in: "signed in" };
const permissionColumn = (permission: string) => PERMISSION_WORDS[permission] ?? `\`${permission}\``;

/** Who may call it with a token: the scope it needs, "any" when any token will do, "—" when no token may. */
function tokenColumn(operation: DocumentOperation): string {
  const scope = operation["x-token-scope"];
  return scope === undefined ? "—" : scope === null ? "any" : `\`${scope}\``;
}

function successColumn(operation: DocumentOperation): string {
  const [status, response] = Object.entries(operation.responses).find(([code]) => /^[23]/.test(code))!;
  return `${status} ${response.description}`;
}

/** The Markdown table, grouped by the document's tags in their order, each route once per method. */
export function routeTable(): string {
  const document = openApiDocument() as {
    tags: Array<{ name: string }>;
    paths: Record<string, Record<string, DocumentOperation>>;
  };
  const rows = Object.entries(document.paths).flatMap(([route, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ route, method: method.toUpperCase(), operation })),
  );
  const lines = ["| route | permission | token scope | what it does | success |", "|---|---|---|---|---|"];
  for (const { name } of document.tags) {
    for (const { route, method, operation } of rows.filter((row) => row.operation.tags[0] === name)) {
      lines.push(
        `| \`${method} ${route}\` | ${permissionColumn(operation["x-permission"])} | ${tokenColumn(operation)} | ${cell(operation.summary)} | ${cell(successColumn(operation))} |`,
      );
    }
  }
  return lines.join("\n");
}

if (process.argv[1]?.endsWith("http-api-routes.ts")) console.log(routeTable());
