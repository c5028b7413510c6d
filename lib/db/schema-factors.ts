// The second factors' tables (issue 36; migration lib/db/migrations/05-second-factors.ts), as Kysely sees them:
// portable as the rest of ./schema.ts, which names them in its Database.
import type { ColumnType } from "kysely";

/** A person's passkey (a WebAuthn credential). */
export interface PasskeysTable {
  id: string; // UUID
  user_id: string;
  credential_id: string; // base64url, as the authenticator gave it; unique
  public_key: string; // base64url of the COSE public key
  counter: ColumnType<number, number | undefined, number>; // the signature counter last reported
  transports: ColumnType<string, string | undefined, string>; // JSON array of AuthenticatorTransport
  device_type: ColumnType<string, string | undefined, string>; // "singleDevice" | "multiDevice"
  backed_up: ColumnType<number, number | undefined, number>; // 0 | 1
  name: string; // his name for it ("Work laptop")
  created_at: string;
  last_used_at: ColumnType<string | null, string | null | undefined, string | null>;
}

/** A person's authenticator app (one per person). */
export interface TotpFactorsTable {
  user_id: string;
  secret_sealed: string; // the base32 secret, sealed (lib/seal.ts)
  /** Null until he typed a code from the app: an unconfirmed secret is no factor. */
  confirmed_at: ColumnType<string | null, string | null | undefined, string | null>;
  /** The time step (30 s) of the last code accepted: a code is used once, an older one never. */
  last_used_step: ColumnType<number | null, number | null | undefined, number | null>;
  created_at: string;
}

/** One recovery code, single use. */
export interface RecoveryCodesTable {
  id: string; // UUID
  user_id: string;
  code_hash: string; // keyed hash of the normalized code, never the code
  used_at: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: string;
}

/** A WebAuthn challenge in flight. */
export interface AuthChallengesTable {
  id: string; // UUID
  challenge: string; // base64url; unique
  purpose: string; // "register" | "sign_in" | "second_factor" | "step_up"
  user_id: string | null; // null for a sign-in with a passkey alone (who is not known yet)
  expires_at: string;
  used_at: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: string;
}

/** The admin's sign-in policy (one row, id "policy"). */
export interface SignInSettingsTable {
  id: string;
  second_factor_policy: string; // SECOND_FACTOR_POLICIES
  updated_at: string;
  updated_by: string | null; // the admin's email
}
