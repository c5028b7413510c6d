// The upstream connections as the admin API and page show and change them: the key each area uses, the keys
// stored in the portal, the area's health; a key tested against the upstream before it is saved; a rotation
// undone; the rejection of a key by the upstream written to the audit log (`upstream.key_rejected`).
import "server-only";

import { recordAudit } from "@/lib/auth/audit";
import { getServerContext } from "@/lib/auth/access";
import { getConfig } from "@/lib/config";
import { AREA_WORDS, capitalised, type Area } from "@/lib/contract/areas";
import type { UpstreamAreaStatus } from "@/lib/contract/upstream-keys";
import type { Db } from "@/lib/db";
import { emitEvent } from "@/lib/events";
import { describeError, logEvent, registerSecrets } from "@/lib/log";
import { redact, redactValue } from "@/lib/log/redact";
import { breakerStatus, upstreamKeyRing } from "@/lib/upstream";
import { withUpstreamWords } from "@/lib/upstream/errors";
import { areaHealth } from "@/lib/upstream/keys/health";
import { probeKey } from "@/lib/upstream/keys/probe";
import { keyFingerprint, last4Of } from "@/lib/upstream/keys/fingerprint";
import { onKeyRejected, type KeyRejection } from "@/lib/upstream/keys/ring";
import {
  activateStoredKey,
  listStoredKeys,
  readStoredKey,
  removeStoredKey,
  saveActiveKey,
  type KeyChange,
  type StoredKey,
} from "@/lib/upstream/keys/store";
import { processWide } from "@/lib/process-wide";

import { ApiError, fromUpstreamError } from "./errors";

function storedOutput(key: StoredKey) {
  return {
    id: key.id,
    fingerprint: key.fingerprint,
    last4: key.last4,
    active: key.active,
    created_at: key.createdAt,
    created_by: key.createdBy,
    activated_at: key.activatedAt,
    activated_by: key.activatedBy,
  };
}

/** One area as the page and GET /api/admin/upstream-keys show it. */
export async function areaStatus(db: Db, area: Area): Promise<UpstreamAreaStatus> {
  const ring = await upstreamKeyRing();
  const config = await getConfig();
  const settings = config.upstream[area];
  const inUse = ring.keyInUse(area);
  const health = areaHealth(area);
  const breaker = breakerStatus(area);
  const rejection = ring.rejection(area);
  const keyEncryption = config.upstream.keyEncryption;
  return {
    area,
    configured: settings !== null,
    base_url: settings?.baseUrl ?? null,
    source: inUse.source,
    portal_keys: settings !== null && settings.apiKey === null && keyEncryption.current !== null,
    key: inUse.fingerprint
      ? {
          fingerprint: inUse.fingerprint,
          last4: inUse.last4,
          set_at: inUse.stored?.activatedAt ?? null,
          set_by: inUse.stored?.activatedBy ?? null,
        }
      : null,
    stored: (await listStoredKeys(db, area)).map(storedOutput),
    rejected: rejection ? { at: rejection.at, fingerprint: rejection.fingerprint } : null,
    health: {
      last_success_at: health.lastSuccessAt,
      last_failure_at: health.lastFailureAt,
      breaker: { state: breaker.state, retry_in_ms: breaker.retryInMs },
      hour: health.summary(60),
      day: health.summary(24 * 60),
      hour_series: health.series(12, 5),
      day_series: health.series(24, 60),
    },
  };
}

/** The areas whose key the upstream rejected, for the admins' banner (no store query: the ring's last poll). */
export async function rejectedKeys(): Promise<KeyRejection[]> {
  const ring = await upstreamKeyRing();
  return (["reports", "items"] as const)
    .map((area) => ring.rejection(area))
    .filter((r): r is KeyRejection => r !== null);
}

/** Refuses a change the environment decides, or when there is no GATEHOUSE_KEK to seal with. */
async function portalKeysFor(area: Area): Promise<Buffer> {
  const config = await getConfig();
  const settings = config.upstream[area];
  if (!settings)
    throw new ApiError(
      "not_found",
      `${capitalised(AREA_WORDS[area].api)} is not configured on this Gatehouse: set ${AREA_WORDS[area].variables.baseUrl} first.`,
    );
  if (settings.apiKey !== null) {
    throw new ApiError(
      "key_set_in_environment",
      `${capitalised(AREA_WORDS[area].api)} takes its key from ${AREA_WORDS[area].variables.key}, which wins over a key kept here. Remove it from the environment (and restart) to manage the key in the portal.`,
    );
  }
  if (!config.upstream.keyEncryption.current) {
    throw new ApiError(
      "key_encryption_off",
      "Keys can be kept in the portal only with GATEHOUSE_KEK set (32 random bytes in base64): an operator sets it and restarts.",
    );
  }
  return config.upstream.keyEncryption.current;
}

/**
 * Asks the upstream one read with `key`. Refused: 400 with the upstream's words in fields.key; not answered
 * (down, timeout): the usual 502/504, so that nobody mistakes "could not ask" for "the key is wrong".
 */
export async function testKey(
  area: Area,
  key: string,
): Promise<{ accepted: true; fingerprint: string; last4: string | null }> {
  const config = await getConfig();
  if (!config.upstream[area])
    throw new ApiError(
      "not_found",
      `${capitalised(AREA_WORDS[area].api)} is not configured on this Gatehouse: set ${AREA_WORDS[area].variables.baseUrl} first.`,
    );
  // Not registered for redaction: only keys in use are (rotateKey, restoreKey, the key ring). A registered string
  // is cut out of every later answer and log line, and a refused "key" is anything an admin typed (testing
  // "reports:read" would redact that permission everywhere). The request body is never logged; the upstream may
  // still quote the key in its refusal, so it is taken out of the upstream's words here.
  const result = await probeKey(config, area, key);
  if (!result.accepted) {
    const error = withUpstreamWords(result.error, (text) => redactValue(text, key));
    if (error.kind === "auth" || error.kind === "not_found") {
      const said = error.upstreamMessage ? `: “${redact(error.upstreamMessage)}”` : "";
      const status = error.status ? ` (HTTP ${error.status})` : "";
      const sentence = `${capitalised(AREA_WORDS[area].api)} refused this key${said}${status}. Nothing was saved.`;
      throw new ApiError("invalid_input", sentence, { fields: { key: sentence } });
    }
    throw fromUpstreamError(error, "The upstream did not find the resource used to test the key.");
  }
  return { accepted: true, fingerprint: keyFingerprint(key, config.dataKey), last4: last4Of(key) };
}

/** Tests, then saves `key` as the area's key; every instance switches within a few seconds. */
export async function rotateKey(db: Db, area: Area, key: string, by: string): Promise<KeyChange> {
  const kek = await portalKeysFor(area);
  await testKey(area, key);
  // Accepted, and about to be the key in use: from now on a log line or an echo that quotes it is redacted.
  registerSecrets([key]);
  const change = await saveActiveKey(db, area, key, by, kek, (await getConfig()).dataKey);
  await (await upstreamKeyRing()).refresh();
  return change;
}

/** Makes a stored key the area's key again (undo), after the upstream accepted it once more. */
export async function restoreKey(db: Db, area: Area, id: string, by: string): Promise<KeyChange> {
  await portalKeysFor(area);
  const config = await getConfig();
  const found = await readStoredKey(db, area, id, config.upstream.keyEncryption);
  if (!found) throw new ApiError("not_found", `There is no stored key ${id} for ${AREA_WORDS[area].api}.`);
  // A key that was in use and is being rotated back to: registered, whatever the upstream says of it now.
  registerSecrets([found.key]);
  if (!found.stored.active) await testKey(area, found.key);
  const change = await activateStoredKey(db, area, id, by);
  if (!change) throw new ApiError("not_found", `There is no stored key ${id} for ${AREA_WORDS[area].api}.`);
  await (await upstreamKeyRing()).refresh();
  return change;
}

/** Removes a disabled stored key; the key in use cannot be removed (rotate or restore another first). */
export async function removeKey(db: Db, area: Area, id: string): Promise<KeyChange> {
  const keys = await listStoredKeys(db, area);
  const target = keys.find((k) => k.id === id);
  if (!target) throw new ApiError("not_found", `There is no stored key ${id} for ${AREA_WORDS[area].api}.`);
  if (target.active)
    throw new ApiError(
      "key_in_use",
      `The key ${target.fingerprint} is the one in use: set a new key or restore another before removing it.`,
    );
  const change = await removeStoredKey(db, area, id);
  if (!change) throw new ApiError("not_found", `There is no stored key ${id} for ${AREA_WORDS[area].api}.`);
  return change;
}

export function changeOutput(change: KeyChange) {
  return { area: change.area, old_fingerprint: change.oldFingerprint, new_fingerprint: change.newFingerprint };
}

/**
 * The one call made when an upstream rejects a key in use: an `upstream.key_rejected` audit row (no user:
 * Gatehouse saw it). A webhook (issue 19) hooks in here too.
 */
export async function keyRejected(rejection: KeyRejection): Promise<void> {
  try {
    const { db } = await getServerContext();
    await recordAudit(db, {
      userId: null,
      userEmail: null,
      action: "upstream.key_rejected",
      target: { type: "upstream_area", id: rejection.area },
      outcome: "failure",
      requestId: null,
      detail: {
        area: rejection.area,
        old_fingerprint: rejection.fingerprint,
        new_fingerprint: null,
        source: rejection.source,
      },
    });
  } catch (error) {
    logEvent("error", "audit_write_failed", {
      action: "upstream.key_rejected",
      area: rejection.area,
      error: describeError(error),
    });
  }
  await emitEvent({
    type: "upstream.key_rejected",
    data: { area: rejection.area, fingerprint: rejection.fingerprint, source: rejection.source },
  });
}

/** Registers keyRejected once per process (instrumentation.ts calls it at start). */
export function watchKeyRejections(): void {
  processWide("api.keyRejectedWatch", () => {
    onKeyRejected(keyRejected);
    return true;
  });
}
