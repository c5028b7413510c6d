// /api/openapi.json: an OpenAPI 3.1 description generated from the operation table and the zod schemas that
// validate requests (zod 4 emits JSON Schema 2020-12, OpenAPI 3.1's dialect). Nothing here is written by hand
// twice: change a schema and the document follows.
import { z } from "zod";

import { ERROR_STATUS, type ErrorCode } from "./errors";
import { LICENCE_KEYS_PATH, SIGNATURE_HEADER, SIGNATURE_KEY_HEADER } from "@/lib/contract/licences";

import { operations, TAGS, type OperationSpec } from "./operations";
import { SESSION_COOKIE_NAME } from "@/lib/auth/edge-names";

import { AccountSchema, ItemSchema } from "@/lib/contract/items";
import { AuditRecordSchema } from "@/lib/contract/audit";
import { CurrentSessionSchema, UserSchema } from "@/lib/contract/accounts";
import { ErrorEnvelopeSchema, PageMetaSchema } from "@/lib/contract/common";
import { ProjectSchema } from "@/lib/contract/projects";
import { PurchaseSchema } from "@/lib/contract/purchases";
import { ReportSchema } from "@/lib/contract/reports";
import { isOneOf, TOKEN_SCOPES } from "@/lib/contract/values";

type JsonSchema = Record<string, unknown>;

// Named objects become components and are referenced by $ref.
const COMPONENTS: Record<string, z.core.$ZodType> = {
  Report: ReportSchema,
  Project: ProjectSchema,
  Account: AccountSchema,
  Item: ItemSchema,
  Purchase: PurchaseSchema,
  PageMeta: PageMetaSchema,
  CurrentSession: CurrentSessionSchema,
  User: UserSchema,
  AuditRecord: AuditRecordSchema,
  Error: ErrorEnvelopeSchema,
};

type Registry = ReturnType<typeof makeRegistry>;

function makeRegistry() {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(COMPONENTS)) registry.add(schema, { id });
  return registry;
}

const REF_PREFIX = "#/components/schemas/";

/** One schema as JSON Schema; components inside it become $refs to components.schemas. */
function toSchema(schema: z.core.$ZodType, io: "input" | "output", registry: Registry): JsonSchema {
  const {
    $schema: _dialect,
    $defs: _defs,
    ...json
  } = z.toJSONSchema(schema, {
    target: "draft-2020-12",
    io,
    unrepresentable: "any",
    metadata: registry,
    // `metadata` replaces zod's global registry, where `.describe()` and `.meta()` keep descriptions and the stated
    // defaults (lib/contract/common.ts): bring them back.
    override: ({ zodSchema, jsonSchema }) => {
      const meta = z.globalRegistry.get(zodSchema);
      if (meta?.description && jsonSchema.description === undefined) jsonSchema.description = meta.description;
      if (meta?.default !== undefined && jsonSchema.default === undefined) jsonSchema.default = meta.default;
    },
  }) as JsonSchema;
  // zod points registry refs at its own `$defs`; the same definitions live under components.schemas.
  return JSON.parse(JSON.stringify(json).replaceAll('"#/$defs/', `"${REF_PREFIX}`)) as JsonSchema;
}

function components(registry: Registry): Record<string, JsonSchema> {
  const { schemas } = z.toJSONSchema(registry, {
    target: "draft-2020-12",
    unrepresentable: "any",
    uri: (id) => `${REF_PREFIX}${id}`,
  }) as { schemas: Record<string, JsonSchema> };
  const out: Record<string, JsonSchema> = {};
  for (const [id, { $schema: _dialect, $id: _id, ...schema }] of Object.entries(schemas)) out[id] = schema;
  return out;
}

const PATH_PARAM_WORDS: Record<string, string> = { path: "path", query: "query" };

const changesState = (spec: OperationSpec) => spec.method !== "GET";
/** Whether an API token may be used for the operation (its permission is a scope, or any signed-in caller). */
const takesToken = (spec: OperationSpec) =>
  spec.permission !== "public" &&
  spec.sessionOnly !== true &&
  (spec.permission === "signed_in" || isOneOf(TOKEN_SCOPES, spec.permission));
/** The scope a token needs for the operation: null when any token will do, undefined when no token may. */
const scopeOf = (spec: OperationSpec): string | null | undefined =>
  !takesToken(spec) ? undefined : spec.permission === "signed_in" ? null : spec.permission;

function parameters(spec: OperationSpec, registry: Registry): JsonSchema[] {
  const out: JsonSchema[] = [];
  if (changesState(spec)) {
    out.push({
      name: "X-CSRF",
      in: "header",
      required: !takesToken(spec),
      description: takesToken(spec)
        ? "With the session cookie, must be 1 on every request that changes something (refused with 403 csrf otherwise); not needed with an API token"
        : "Must be 1 on every request that changes something (refused with 403 csrf otherwise)",
      schema: { type: "string", const: "1" },
    });
  }
  for (const [location, schema] of [
    ["path", spec.params],
    ["query", spec.query],
  ] as const) {
    if (!schema) continue;
    const json = toSchema(schema, "input", registry);
    const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set((json.required as string[] | undefined) ?? []);
    for (const [name, property] of Object.entries(properties)) {
      const { description, ...propertySchema } = property;
      out.push({
        name,
        in: PATH_PARAM_WORDS[location],
        required: location === "path" || required.has(name),
        ...(typeof description === "string" ? { description } : {}),
        schema: propertySchema,
      });
    }
  }
  return out;
}

/** Errors every operation of an area can answer, besides its own. */
const UPSTREAM_ERRORS: ErrorCode[] = [
  "area_not_configured",
  "upstream_auth",
  "upstream_unreachable",
  "upstream_bad_response",
  "upstream_error",
  "upstream_rate_limited",
  "upstream_timeout",
  "upstream_unavailable",
];

function errorCodes(spec: OperationSpec): ErrorCode[] {
  const codes = new Set<ErrorCode>(spec.errors ?? []);
  if (changesState(spec)) codes.add("csrf");
  if (spec.permission !== "public") codes.add("unauthenticated");
  if (spec.permission !== "public" && spec.permission !== "signed_in") codes.add("forbidden");
  if (spec.permission !== "public") {
    for (const code of [
      "token_invalid",
      "token_expired",
      "token_revoked",
      "insufficient_scope",
      "address_not_allowed",
      "rate_limited",
      "quota_exceeded",
    ] as const)
      codes.add(code);
  }
  if (spec.stepUp) codes.add("step_up_required");
  if (spec.params || spec.query) codes.add("invalid_input");
  if (spec.body) {
    for (const code of ["invalid_input", "invalid_json", "payload_too_large", "unsupported_media_type"] as const)
      codes.add(code);
  }
  if (spec.notFound) codes.add("not_found");
  if (spec.area) for (const code of UPSTREAM_ERRORS) codes.add(code);
  codes.add("internal");
  return [...codes];
}

/** JSON; and for an operation that also takes the HTML form of its page (sign-in), the form's fields plus `next`. */
function requestBody(spec: OperationSpec, registry: Registry): JsonSchema {
  const schema = toSchema(spec.body!, "input", registry);
  const content: Record<string, JsonSchema> = { "application/json": { schema } };
  if (spec.form) {
    const properties = {
      ...((schema.properties ?? {}) as Record<string, JsonSchema>),
      next: { type: "string", description: "Where to go after signing in (a path of this site)" },
    };
    content["application/x-www-form-urlencoded"] = { schema: { ...schema, properties } };
  }
  return { required: true, content };
}

function responses(spec: OperationSpec, registry: Registry): Record<string, JsonSchema> {
  const out: Record<string, JsonSchema> = {};
  const successHeaders = { "X-Request-Id": { $ref: "#/components/headers/X-Request-Id" } };
  const { success } = spec;
  out[String(success.status)] = {
    description: success.description,
    headers:
      success.status === 302 || success.status === 303
        ? { ...successHeaders, Location: { schema: { type: "string" } } }
        : successHeaders,
    ...(success.schema
      ? { content: { "application/json": { schema: toSchema(success.schema, "output", registry) } } }
      : {}),
    ...(success.contentType
      ? {
          content: Object.fromEntries(
            [success.contentType].flat().map((type) => [type, { schema: { type: "string" } }]),
          ),
        }
      : {}),
  };
  if (spec.form) {
    out["303"] = {
      description: `The HTML form (posted without JavaScript): on success to \`next\` with the session cookie; on failure back to ${spec.form.page} with \`error\` (the error code) and \`next\``,
      headers: { ...successHeaders, Location: { schema: { type: "string" } } },
    };
  }
  if (success.status === 302) {
    // A sign-in that cannot go to the provider (single sign-on off, the provider unreachable) returns to the page.
    out["303"] = {
      description:
        "Back to /login with `error` (the code; the page shows its sentence): the sign-in could not go to the provider",
      headers: { ...successHeaders, Location: { schema: { type: "string" } } },
    };
  }
  if (spec.id === "ready") {
    out["503"] = {
      description: "Not ready: a configured area is unreachable or rejects its key (same body as 200)",
      headers: successHeaders,
      content: { "application/json": { schema: toSchema(success.schema ?? z.unknown(), "output", registry) } },
    };
  }
  // proxy.ts answers any request for a host name the portal does not serve, before any route runs.
  out["421"] = { $ref: "#/components/responses/MisdirectedRequest" };
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of errorCodes(spec)) {
    const status = ERROR_STATUS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
    out[String(status)] ??= {
      description: `Error: ${codes.join(", ")}`,
      headers: {
        ...successHeaders,
        ...(status === 429 || (status === 503 && spec.signed)
          ? {
              "Retry-After": {
                description: "Seconds to wait (passed on from the upstream for upstream_rate_limited)",
                schema: { type: "string" },
              },
            }
          : {}),
      },
      content: { "application/json": { schema: { $ref: `${REF_PREFIX}Error` } } },
    };
  }
  // The licence API signs every answer it gives (lib/api/steps/sign.ts).
  if (spec.signed) {
    for (const response of Object.values(out)) {
      if (!response.headers) continue;
      response.headers = {
        ...(response.headers as Record<string, JsonSchema>),
        [SIGNATURE_HEADER]: {
          description: "Ed25519 signature (base64) of the body's bytes, by the key the next header names",
          schema: { type: "string" },
        },
        [SIGNATURE_KEY_HEADER]: {
          description: `The signing key's id, one of ${LICENCE_KEYS_PATH}`,
          schema: { type: "string" },
        },
      };
    }
  }
  return out;
}

let cached: JsonSchema | undefined;

export function openApiDocument(): JsonSchema {
  if (cached) return cached;
  const registry = makeRegistry();
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const spec of Object.values(operations) as OperationSpec[]) {
    const operation: JsonSchema = {
      operationId: spec.id,
      summary: spec.summary,
      tags: [spec.tag],
      "x-permission": spec.permission,
      ...(scopeOf(spec) !== undefined ? { "x-token-scope": scopeOf(spec) } : {}),
      // Fields of the answer a caller sees only with a further permission (and, with a token, that scope).
      ...(spec.guardedFields ? { "x-field-permissions": spec.guardedFields } : {}),
      // A public operation needs no credential: say so, rather than leave it to the document's default. Either
      // way in is enough: the session cookie, or an API token with the operation's scope.
      security:
        spec.permission === "public"
          ? []
          : takesToken(spec)
            ? [{ session: [] }, { apiToken: scopeOf(spec) ? [scopeOf(spec)] : [] }]
            : [{ session: [] }],
      ...(spec.area ? { "x-upstream-area": spec.area } : {}),
      parameters: parameters(spec, registry),
      ...(spec.body ? { requestBody: requestBody(spec, registry) } : {}),
      responses: responses(spec, registry),
    };
    paths[spec.path] ??= {};
    paths[spec.path]![spec.method.toLowerCase()] = operation;
  }
  cached = {
    openapi: "3.1.0",
    info: {
      title: "Gatehouse API",
      version: "1.0.0",
      description:
        'The portal\'s JSON API. Gatehouse holds the upstream API keys on the server; callers never see them. Sign in with POST /api/auth/login (the session is a cookie; every request that changes something must then carry X-CSRF: 1), or send an API token as Authorization: Bearer gth_… (x-token-scope names the scope it needs). x-permission names what each operation needs of the caller\'s role. Every answer carries X-Request-Id; errors use the envelope {"error":{"code","message","fields"?,"request_id"}}.',
    },
    servers: [{ url: "/" }],
    tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
    paths,
    components: {
      schemas: components(registry),
      headers: {
        "X-Request-Id": { description: "The request's id, also in the server's log line", schema: { type: "string" } },
      },
      responses: {
        MisdirectedRequest: {
          description:
            "The request was sent to a host name this portal does not serve (PUBLIC_ORIGIN, ALLOWED_HOSTS; demo mode: loopback names only). Answered before any route runs, so without a request id",
          content: {
            "application/json": {
              schema: {
                type: "object",
                required: ["error"],
                properties: {
                  error: {
                    type: "object",
                    required: ["code", "message"],
                    properties: { code: { const: "misdirected_request" }, message: { type: "string" } },
                  },
                },
              },
            },
          },
        },
      },
      securitySchemes: {
        session: {
          type: "apiKey",
          in: "cookie",
          name: SESSION_COOKIE_NAME,
          description: `Set by POST /api/auth/login; named __Host-${SESSION_COOKIE_NAME} when the portal is served over https`,
        },
        apiToken: {
          type: "http",
          scheme: "bearer",
          bearerFormat: "gth_ token",
          description:
            "Authorization: Bearer gth_…, made on the API tokens page or with POST /api/tokens. It acts as its owner within its scopes (the security requirement and x-token-scope name the scope each operation needs); no X-CSRF, no session. 401 token_invalid, token_expired or token_revoked; 403 insufficient_scope names the missing scope",
        },
      },
    },
  };
  return cached;
}
