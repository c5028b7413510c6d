// A small software authenticator for the passkey tests: it answers the portal's WebAuthn options as a browser and a
// platform authenticator would (attestation "none", ES256 keys from node:crypto, user presence and verification
// flagged), so that HTTP and unit tests drive registration and assertions without a browser. What a test needs to
// attack the portal is an option: another origin in the client data, another relying party, another challenge,
// a wrong signature, a user handle of its choosing.
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from "node:crypto";

export interface SoftwarePasskey {
  id: string; // base64url credential id
  privateKey: KeyObject;
  userHandle: string; // base64url, as the options' user.id gave it
  rpId: string;
  counter: number;
}

interface RegistrationOptions {
  challenge: string;
  rp: { id?: string; name: string };
  user: { id: string; name: string; displayName: string };
}

interface AuthenticationOptions {
  challenge: string;
  rpId?: string;
  allowCredentials?: Array<{ id: string }>;
}

export interface CeremonyTweaks {
  /** The origin written into the client data (default: the one given). */
  origin?: string;
  /** The relying party id hashed into the authenticator data (default: the options'). */
  rpId?: string;
  /** Another challenge than the options'. */
  challenge?: string;
  /** Leave out user verification (the UV flag). */
  noUserVerification?: boolean;
}

const b64url = (bytes: Uint8Array | Buffer) => Buffer.from(bytes).toString("base64url");
const sha256 = (data: Uint8Array | string) => createHash("sha256").update(data).digest();

// ---------------------------------------------------------------------------------------------------------
// A tiny CBOR encoder: unsigned and negative integers, byte and text strings, maps (all WebAuthn needs here).

type Cbor = number | string | Uint8Array | Map<Cbor, Cbor>;

function head(major: number, length: number): Buffer {
  if (length < 24) return Buffer.from([(major << 5) | length]);
  if (length < 0x100) return Buffer.from([(major << 5) | 24, length]);
  if (length < 0x10000) {
    const out = Buffer.alloc(3);
    out[0] = (major << 5) | 25;
    out.writeUInt16BE(length, 1);
    return out;
  }
  const out = Buffer.alloc(5);
  out[0] = (major << 5) | 26;
  out.writeUInt32BE(length, 1);
  return out;
}

export function cbor(value: Cbor): Buffer {
  if (typeof value === "number") return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === "string") {
    const bytes = Buffer.from(value, "utf8");
    return Buffer.concat([head(3, bytes.length), bytes]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), Buffer.from(value)]);
  const parts: Buffer[] = [head(5, value.size)];
  for (const [key, item] of value) parts.push(cbor(key), cbor(item));
  return Buffer.concat(parts);
}

// ---------------------------------------------------------------------------------------------------------

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;

function counterBytes(counter: number): Buffer {
  const out = Buffer.alloc(4);
  out.writeUInt32BE(counter, 0);
  return out;
}

function clientData(type: "webauthn.create" | "webauthn.get", challenge: string, origin: string): Buffer {
  return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }), "utf8");
}

/** The COSE (EC2, ES256) form of a P-256 public key. */
function coseKey(publicKey: KeyObject): Buffer {
  const jwk = publicKey.export({ format: "jwk" });
  return cbor(
    new Map<Cbor, Cbor>([
      [1, 2], // kty: EC2
      [3, -7], // alg: ES256
      [-1, 1], // crv: P-256
      [-2, Buffer.from(jwk.x!, "base64url")],
      [-3, Buffer.from(jwk.y!, "base64url")],
    ]),
  );
}

export class SoftwareAuthenticator {
  readonly passkeys: SoftwarePasskey[] = [];

  /** The answer to registration options (navigator.credentials.create), as @simplewebauthn/browser sends it. */
  register(options: RegistrationOptions, origin: string, tweaks: CeremonyTweaks = {}) {
    const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    const credentialId = randomBytes(32);
    const rpId = tweaks.rpId ?? options.rp.id ?? new URL(origin).hostname;
    const flags = FLAG_UP | (tweaks.noUserVerification ? 0 : FLAG_UV) | FLAG_AT;
    const authData = Buffer.concat([
      sha256(rpId),
      Buffer.from([flags]),
      counterBytes(0),
      Buffer.alloc(16), // AAGUID: none
      Buffer.from([credentialId.length >> 8, credentialId.length & 0xff]),
      credentialId,
      coseKey(publicKey),
    ]);
    const attestationObject = cbor(
      new Map<Cbor, Cbor>([
        ["fmt", "none"],
        ["attStmt", new Map()],
        ["authData", authData],
      ]),
    );
    const passkey: SoftwarePasskey = {
      id: b64url(credentialId),
      privateKey,
      userHandle: options.user.id,
      rpId: options.rp.id ?? rpId,
      counter: 0,
    };
    this.passkeys.push(passkey);
    return {
      id: passkey.id,
      rawId: passkey.id,
      type: "public-key" as const,
      response: {
        clientDataJSON: b64url(
          clientData("webauthn.create", tweaks.challenge ?? options.challenge, tweaks.origin ?? origin),
        ),
        attestationObject: b64url(attestationObject),
        transports: ["internal"],
      },
      clientExtensionResults: {},
      authenticatorAttachment: "platform",
    };
  }

  /**
   * The answer to authentication options (navigator.credentials.get) with `passkey` (default: the first one the
   * options allow, or the newest), as @simplewebauthn/browser sends it. `wrongSignature` signs other bytes.
   */
  assert(
    options: AuthenticationOptions,
    origin: string,
    {
      passkey,
      wrongSignature,
      userHandle,
      ...tweaks
    }: CeremonyTweaks & {
      passkey?: SoftwarePasskey;
      wrongSignature?: boolean;
      userHandle?: string;
    } = {},
  ) {
    const allowed = options.allowCredentials?.map((c) => c.id);
    const chosen =
      passkey ??
      (allowed && allowed.length > 0
        ? this.passkeys.find((p) => allowed.includes(p.id))
        : this.passkeys[this.passkeys.length - 1]);
    if (!chosen) throw new Error("SoftwareAuthenticator: no passkey for these options");
    chosen.counter += 1;
    const rpId = tweaks.rpId ?? options.rpId ?? chosen.rpId;
    const flags = FLAG_UP | (tweaks.noUserVerification ? 0 : FLAG_UV);
    const authData = Buffer.concat([sha256(rpId), Buffer.from([flags]), counterBytes(chosen.counter)]);
    const clientDataJSON = clientData("webauthn.get", tweaks.challenge ?? options.challenge, tweaks.origin ?? origin);
    const signed = Buffer.concat([authData, sha256(clientDataJSON)]);
    const signature = sign(
      "sha256",
      wrongSignature ? Buffer.concat([signed, Buffer.from([0])]) : signed,
      chosen.privateKey,
    );
    return {
      id: chosen.id,
      rawId: chosen.id,
      type: "public-key" as const,
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        userHandle: userHandle ?? chosen.userHandle,
      },
      clientExtensionResults: {},
      authenticatorAttachment: "platform",
    };
  }
}
