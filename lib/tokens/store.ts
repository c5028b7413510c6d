// API tokens: the only module that reads or writes the api_tokens table. A token acts as its owner within its
// scopes; every request reads the token and its owner afresh (no cache), so revoking it, disabling the owner or
// lowering his role takes effect on the very next request.
import "server-only";

import { randomUUID } from "node:crypto";

import { hasBrand } from "@/lib/brand";
import { can } from "@/lib/auth/permissions";
import { getUserById, type User } from "@/lib/auth/users";
import type { TokenCreateBody, TokenOutput, TokenUpdateBody } from "@/lib/contract/tokens";
import {
  isOneOf,
  MAX_ACTIVE_TOKENS_PER_OWNER,
  MAX_TOKEN_DAYS,
  TOKEN_SCOPES,
  type TokenScope,
} from "@/lib/contract/values";
import { isPostgres, writeTransaction, type Db } from "@/lib/db";
import type { ApiTokenRow } from "@/lib/db/schema";
import { inRanges, parseRange, plainAddress, type AddressRange } from "@/lib/net";

import { generateTokenSecret, hashTokenSecret, isWellFormedToken } from "./secret";

const DAY_MS = 86_400_000;
/** Last use is written at most this often per token (or at once from a new address). */
export const LAST_USED_EVERY_MS = 60_000;
/** Addresses remembered per token to tell a new one; past this, the oldest is forgotten. */
const MAX_SEEN_ADDRESSES = 50;

export type TokenErrorCode = "invalid" | "not_found" | "too_many";
const TOKEN_ERROR: unique symbol = Symbol.for("gatehouse.TokenError");

/** A refusal a person can act on: `invalid` names the field (400), `not_found` is 404, `too_many` is 409. */
export class TokenError extends Error {
  readonly [TOKEN_ERROR] = true;
  override name = "TokenError";
  constructor(
    readonly code: TokenErrorCode,
    message: string,
    readonly field: string | null = null,
  ) {
    super(message);
  }
}

export function isTokenError(error: unknown): error is TokenError {
  return hasBrand(error, TOKEN_ERROR);
}

export interface TokenRecord {
  id: string;
  name: string;
  scopes: TokenScope[];
  userId: string;
  allowedIps: string[] | null;
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
  lastUsedIp: string | null;
  revokedAt: string | null;
  seenAddresses: string[];
  /** Its own limits (null: none of its own): requests a minute, requests a calendar month (UTC). */
  rateLimitPerMinute: number | null;
  monthlyQuota: number | null;
}

const parseList = (text: string | null): string[] => {
  if (text === null) return [];
  const value: unknown = JSON.parse(text);
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
};

function toRecord(row: ApiTokenRow): TokenRecord {
  return {
    id: row.id,
    name: row.name,
    scopes: parseList(row.scopes).filter((s): s is TokenScope => isOneOf(TOKEN_SCOPES, s)),
    userId: row.user_id,
    allowedIps: row.allowed_ips === null ? null : parseList(row.allowed_ips),
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    lastUsedAt: row.last_used_at,
    lastUsedIp: row.last_used_ip,
    revokedAt: row.revoked_at,
    seenAddresses: parseList(row.seen_addresses),
    rateLimitPerMinute: row.rate_limit_per_minute === null ? null : Number(row.rate_limit_per_minute),
    monthlyQuota: row.monthly_quota === null ? null : Number(row.monthly_quota),
  };
}

export function tokenStatus(
  token: Pick<TokenRecord, "revokedAt" | "expiresAt">,
  now = new Date(),
): TokenOutput["status"] {
  if (token.revokedAt !== null) return "revoked";
  if (token.expiresAt !== null && token.expiresAt <= now.toISOString()) return "expired";
  return "active";
}

export function tokenOutput(
  token: TokenRecord,
  owner: Pick<User, "id" | "email" | "service">,
  now = new Date(),
): TokenOutput {
  return {
    id: token.id,
    name: token.name,
    scopes: token.scopes,
    user: { id: owner.id, email: owner.email, service: owner.service },
    allowed_ips: token.allowedIps,
    created_at: token.createdAt,
    expires_at: token.expiresAt,
    last_used_at: token.lastUsedAt,
    last_used_ip: token.lastUsedIp,
    revoked_at: token.revokedAt,
    status: tokenStatus(token, now),
    rate_limit_per_minute: token.rateLimitPerMinute,
    monthly_quota: token.monthlyQuota,
  };
}

/** Whom `actor` may make tokens for and list on his own page: himself, and (an admin) every service account. */
function mayManageFor(actor: User, owner: User): boolean {
  return actor.id === owner.id || (owner.service && can(actor, "users:manage"));
}

/** Whose tokens `actor` may revoke: his own, and (an admin) anyone's — recovering an account includes its tokens. */
function mayRevokeFor(actor: User, owner: User): boolean {
  return actor.id === owner.id || can(actor, "users:manage");
}

function expiryOf(body: TokenCreateBody, owner: User, now: Date): string | null {
  if (body.never_expires) {
    if (!owner.service)
      throw new TokenError(
        "invalid",
        "never_expires is only for a service account's token: choose a lifetime",
        "never_expires",
      );
    return null;
  }
  if (body.expires_in_days !== undefined) return new Date(now.getTime() + body.expires_in_days * DAY_MS).toISOString();
  const at = new Date(body.expires_at!);
  if (at.getTime() <= now.getTime()) throw new TokenError("invalid", "expires_at must be in the future", "expires_at");
  if (at.getTime() > now.getTime() + MAX_TOKEN_DAYS * DAY_MS)
    throw new TokenError("invalid", `expires_at must be at most ${MAX_TOKEN_DAYS} days away`, "expires_at");
  return at.toISOString();
}

function rangesOf(list: readonly string[] | undefined): string[] | null {
  if (list === undefined || list.length === 0) return null;
  return list.map((text, i) => {
    const range = parseRange(text);
    if (!range)
      throw new TokenError(
        "invalid",
        `allowed_ips.${i} must be an IP address or a CIDR range such as 203.0.113.0/24 (got ${JSON.stringify(text.slice(0, 50))})`,
        `allowed_ips.${i}`,
      );
    return range.text;
  });
}

/**
 * Makes a token for `body.user_id` (an admin, for a service account) or for `actor`. Its scopes must be
 * permissions the owner's role has. Returns the record and its secret, which is never stored or shown again.
 */
export async function createToken(
  db: Db,
  actor: User,
  body: TokenCreateBody,
  now = new Date(),
): Promise<{ token: TokenRecord; owner: User; secret: string }> {
  const owner = body.user_id === undefined || body.user_id === actor.id ? actor : await getUserById(db, body.user_id);
  if (!owner || !mayManageFor(actor, owner)) {
    throw new TokenError("invalid", "user_id must be your own id or, for an admin, a service account's", "user_id");
  }
  if (owner.disabled)
    throw new TokenError("invalid", `${owner.email} is disabled: enable the account first`, "user_id");
  const missing = body.scopes.filter((scope) => !can(owner, scope));
  if (missing.length > 0) {
    throw new TokenError(
      "invalid",
      `scopes must be permissions ${owner.email}'s role (${owner.role}) has; it does not have ${missing.join(", ")}`,
      "scopes",
    );
  }
  const expiresAt = expiryOf(body, owner, now);
  const allowedIps = rangesOf(body.allowed_ips);
  const secret = generateTokenSecret();
  // Counted and inserted under the owner's lock (his users row on PostgreSQL, the write lock on SQLite), so that
  // a burst of requests sent at once cannot pass the cap together.
  const row = await writeTransaction(db, async (trx) => {
    if (isPostgres(trx)) await trx.selectFrom("users").select("id").where("id", "=", owner.id).forUpdate().execute();
    const { active } = await trx
      .selectFrom("api_tokens")
      .select((eb) => eb.fn.countAll<number | string>().as("active"))
      .where("user_id", "=", owner.id)
      .where("revoked_at", "is", null)
      .where((eb) => eb.or([eb("expires_at", "is", null), eb("expires_at", ">", now.toISOString())]))
      .executeTakeFirstOrThrow();
    if (Number(active) >= MAX_ACTIVE_TOKENS_PER_OWNER) {
      throw new TokenError(
        "too_many",
        `${owner.id === actor.id ? "You have" : `${owner.email} has`} ${MAX_ACTIVE_TOKENS_PER_OWNER} active tokens, the most one account may have: revoke one that is no longer used first`,
      );
    }
    return trx
      .insertInto("api_tokens")
      .values({
        id: randomUUID(),
        user_id: owner.id,
        name: body.name,
        token_hash: hashTokenSecret(secret),
        scopes: JSON.stringify(body.scopes),
        allowed_ips: allowedIps === null ? null : JSON.stringify(allowedIps),
        created_at: now.toISOString(),
        created_by: actor.id,
        expires_at: expiresAt,
        last_used_at: null,
        last_used_ip: null,
        seen_addresses: null,
        revoked_at: null,
        revoked_by: null,
        rate_limit_per_minute: body.rate_limit_per_minute ?? null,
        monthly_quota: body.monthly_quota ?? null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  });
  return { token: toRecord(row), owner, secret };
}

export interface ListedToken {
  token: TokenRecord;
  owner: User;
}

/** Rows with their owners (each read once), those `keep` lets through, in the rows' order. */
async function withOwners(
  db: Db,
  actor: User,
  rows: ApiTokenRow[],
  keep: (owner: User) => boolean,
): Promise<ListedToken[]> {
  const owners = new Map<string, User | null>();
  const listed: ListedToken[] = [];
  for (const row of rows) {
    if (!owners.has(row.user_id))
      owners.set(row.user_id, row.user_id === actor.id ? actor : await getUserById(db, row.user_id));
    const owner = owners.get(row.user_id);
    if (owner && keep(owner)) listed.push({ token: toRecord(row), owner });
  }
  return listed;
}

/** The tokens `actor` may manage: his own and, for an admin, every service account's. Newest first. */
export async function listTokens(db: Db, actor: User): Promise<ListedToken[]> {
  const rows = await db.selectFrom("api_tokens").selectAll().orderBy("created_at", "desc").orderBy("id").execute();
  return withOwners(db, actor, rows, (owner) => mayManageFor(actor, owner));
}

/** Every person's tokens, or one person's (`userId`), newest first: for an admin (the caller checks the role). */
export async function listEveryToken(db: Db, actor: User, userId?: string): Promise<ListedToken[]> {
  let query = db.selectFrom("api_tokens").selectAll();
  if (userId !== undefined) query = query.where("user_id", "=", userId);
  return withOwners(db, actor, await query.orderBy("created_at", "desc").orderBy("id").execute(), () => true);
}

/**
 * Revokes every active token of `ownerId` (an admin's password reset or disabling of the account): what recovery
 * took away must not come back when the account is enabled again. Returns the tokens it revoked, for the audit log.
 */
export function revokeTokensOf(db: Db, ownerId: string, actor: User | null, now = new Date()): Promise<TokenRecord[]> {
  return revokeActive(db, "user_id", ownerId, actor, now);
}

/** Revokes the active tokens whose `column` is `value` (one by id, or all of an owner's); returns those it revoked. */
async function revokeActive(
  db: Db,
  column: "id" | "user_id",
  value: string,
  actor: User | null,
  now: Date,
): Promise<TokenRecord[]> {
  const rows = await db
    .updateTable("api_tokens")
    // No actor: an operator at the users CLI.
    .set({ revoked_at: now.toISOString(), revoked_by: actor?.id ?? null })
    .where(column, "=", value)
    .where("revoked_at", "is", null)
    .returningAll()
    .execute();
  return rows.map(toRecord);
}

/** Revokes a token `actor` may revoke (a second revoke answers it as it is); TokenError not_found otherwise. */
export async function revokeToken(db: Db, actor: User, id: string, now = new Date()): Promise<ListedToken> {
  const row = await db.selectFrom("api_tokens").selectAll().where("id", "=", id).executeTakeFirst();
  const owner = row ? (row.user_id === actor.id ? actor : await getUserById(db, row.user_id)) : null;
  if (!row || !owner || !mayRevokeFor(actor, owner))
    throw new TokenError("not_found", `There is no token with id ${id}.`);
  if (row.revoked_at !== null) return { token: toRecord(row), owner };
  const [updated] = await revokeActive(db, "id", id, actor, now);
  return { token: updated ?? toRecord(row), owner };
}

/**
 * Changes a token's own limits (its owner, or an admin for a service account's token: whoever may list it on his
 * page); a field left out stays as it is, null removes the limit. A revoked token cannot be changed.
 */
export async function updateTokenLimits(db: Db, actor: User, id: string, body: TokenUpdateBody): Promise<ListedToken> {
  const row = await db.selectFrom("api_tokens").selectAll().where("id", "=", id).executeTakeFirst();
  const owner = row ? (row.user_id === actor.id ? actor : await getUserById(db, row.user_id)) : null;
  if (!row || !owner || !mayManageFor(actor, owner))
    throw new TokenError("not_found", `There is no token with id ${id}.`);
  if (row.revoked_at !== null)
    throw new TokenError("invalid", "This token is revoked: its limits can no longer be changed.", "id");
  const updated = await db
    .updateTable("api_tokens")
    .set({
      ...(body.rate_limit_per_minute !== undefined && { rate_limit_per_minute: body.rate_limit_per_minute }),
      ...(body.monthly_quota !== undefined && { monthly_quota: body.monthly_quota }),
    })
    .where("id", "=", id)
    .returningAll()
    .executeTakeFirstOrThrow();
  return { token: toRecord(updated), owner };
}

export type TokenRefusal = "malformed" | "unknown" | "revoked" | "expired" | "owner_disabled" | "address";

export type TokenCheck =
  { ok: true; token: TokenRecord; user: User } | { ok: false; reason: TokenRefusal; token?: TokenRecord };

/**
 * Who a bearer secret speaks for, read from the store on every request: the token must be well formed, known,
 * not revoked, not expired, its owner present and enabled, and `address` inside its allowed ranges (when it has
 * any; an unknown address then does not pass).
 */
export async function checkToken(
  db: Db,
  secret: string,
  address: string | null,
  now = new Date(),
): Promise<TokenCheck> {
  if (!isWellFormedToken(secret)) return { ok: false, reason: "malformed" };
  const row = await db
    .selectFrom("api_tokens")
    .selectAll()
    .where("token_hash", "=", hashTokenSecret(secret))
    .executeTakeFirst();
  if (!row) return { ok: false, reason: "unknown" };
  const token = toRecord(row);
  const status = tokenStatus(token, now);
  if (status !== "active") return { ok: false, reason: status, token };
  const user = await getUserById(db, token.userId);
  if (!user || user.disabled) return { ok: false, reason: "owner_disabled", token };
  if (token.allowedIps !== null) {
    const ranges = token.allowedIps.map(parseRange).filter((r): r is AddressRange => r !== null);
    if (address === null || !inRanges(ranges, address)) return { ok: false, reason: "address", token };
  }
  return { ok: true, token, user };
}

/**
 * Notes a use of the token: its last use and address are written at most once a minute, or at once from an
 * address it was not used from before (then `newAddress` is true, for the audit log). Most requests write nothing.
 */
export async function noteTokenUse(
  db: Db,
  token: TokenRecord,
  address: string | null,
  now = new Date(),
): Promise<{ newAddress: boolean }> {
  const shown = address === null ? null : plainAddress(address);
  const newAddress = shown !== null && !token.seenAddresses.includes(shown);
  const due =
    token.lastUsedAt === null ||
    now.getTime() - Date.parse(token.lastUsedAt) >= LAST_USED_EVERY_MS ||
    token.lastUsedIp !== shown;
  if (!newAddress && !due) return { newAddress: false };
  const seen = newAddress ? [...token.seenAddresses, shown].slice(-MAX_SEEN_ADDRESSES) : token.seenAddresses;
  await db
    .updateTable("api_tokens")
    .set({
      last_used_at: now.toISOString(),
      last_used_ip: shown,
      ...(newAddress && { seen_addresses: JSON.stringify(seen) }),
    })
    .where("id", "=", token.id)
    .execute();
  return { newAddress };
}
