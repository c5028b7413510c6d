// docs/licences.md's snippets verify what Gatehouse signs: the JavaScript one, taken from the doc as it stands and
// run as a module, accepts an answer signed by lib/licences/signing.ts (its key made in an in-test store, the
// published key read as the keys document gives it) through Node's crypto and through WebCrypto, and refuses the
// answer with one byte changed, another key's signature, and a signature of another answer. The PHP one runs only
// where `php` with sodium is installed (it is not on every machine that runs the suite): its test says so by name.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { parseDatabaseUrl } from "@/lib/config/store";
import { openDb, type Store } from "@/lib/db";
import { licenceSigner, publishedKeys, type LicenceSigner } from "@/lib/licences/signing";

import { ROOT } from "@/tests/support/processes";

const DOC = readFileSync(path.join(ROOT, "docs/licences.md"), "utf8");

/** The fenced block right after `<!-- snippet: name -->`. */
function snippet(name: string): string {
  const match = new RegExp(`<!-- snippet: ${name} -->\\n\`\`\`[a-z]+\\n([\\s\\S]*?)\\n\`\`\``).exec(DOC);
  if (!match) throw new Error(`docs/licences.md has no snippet "${name}"`);
  return match[1]!;
}

interface JsSnippet {
  verifyWithNode(body: string | Uint8Array, signature: string, publicKey: string): boolean;
  verifyWithWebCrypto(body: string | Uint8Array, signature: string, publicKey: string): Promise<boolean>;
  licenceCall: unknown;
}

/** An answer as the licence API sends one (its exact bytes), with characters outside ASCII as real answers have. */
const BODY = JSON.stringify({
  data: {
    active: true,
    licence: { status: "active", item_id: 100001, item_name: "Bücher – a shop", code_last4: "7e6f" },
    verdict: { fresh: false, as_of: "2026-11-28T12:00:00.000Z" },
    nonce: "4f1c2a9e0b7d",
  },
});

/** php, where it is installed (found as tests/support/redis.ts finds redis-server), with sodium. */
const PHP = spawnSync("sh", ["-c", "command -v php"], { encoding: "utf8" }).stdout.trim();
const hasPhpSodium =
  PHP !== "" &&
  spawnSync(PHP, ["-r", 'echo function_exists("sodium_crypto_sign_verify_detached") ? "yes" : "no";'], {
    encoding: "utf8",
  }).stdout === "yes";

let dir: string;
let store: Store;
let other: Store;
let signer: LicenceSigner;
let publicKey: string;
let otherSigner: LicenceSigner;
let js: JsSnippet;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "gatehouse-licence-snippets-"));
  store = await openDb(parseDatabaseUrl(path.join(dir, "store.db")));
  const dataKey = "licence-snippets-test-key-0123456789abcdef";
  signer = await licenceSigner(store.db, dataKey);
  const [published] = await publishedKeys(store.db, dataKey);
  expect(published!.id).toBe(signer.keyId);
  publicKey = published!.public_key;
  // Another deployment's key: a store of its own.
  other = await openDb(parseDatabaseUrl(path.join(dir, "other.db")));
  otherSigner = await licenceSigner(other.db, dataKey);
  const file = path.join(dir, "verify-licence.mjs");
  await writeFile(file, snippet("js-verify"));
  js = (await import(pathToFileURL(file).href)) as JsSnippet;
});

afterAll(async () => {
  await store?.close();
  await other?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** The answer with one byte changed: the nonce's last character, as a replay would change it. */
const changed = BODY.replace('0b7d"', '0b7e"');

describe("docs/licences.md, the JavaScript snippet", () => {
  it("exports the functions the doc describes", () => {
    expect(typeof js.verifyWithNode).toBe("function");
    expect(typeof js.verifyWithWebCrypto).toBe("function");
    expect(typeof js.licenceCall).toBe("function");
  });

  it("verifies an answer signed by Gatehouse's signer with the published key, through Node's crypto", () => {
    const signature = signer.sign(BODY);
    expect(js.verifyWithNode(BODY, signature, publicKey)).toBe(true);
    expect(js.verifyWithNode(Buffer.from(BODY), signature, publicKey)).toBe(true);
    expect(changed).not.toBe(BODY);
    expect(js.verifyWithNode(changed, signature, publicKey)).toBe(false);
    expect(js.verifyWithNode(BODY, otherSigner.sign(BODY), publicKey)).toBe(false);
    expect(js.verifyWithNode(BODY, signer.sign(changed), publicKey)).toBe(false);
  });

  it("verifies the same through WebCrypto's Ed25519", async () => {
    const signature = signer.sign(BODY);
    expect(await js.verifyWithWebCrypto(BODY, signature, publicKey)).toBe(true);
    expect(await js.verifyWithWebCrypto(new TextEncoder().encode(BODY), signature, publicKey)).toBe(true);
    expect(await js.verifyWithWebCrypto(changed, signature, publicKey)).toBe(false);
    expect(await js.verifyWithWebCrypto(BODY, otherSigner.sign(BODY), publicKey)).toBe(false);
  });
});

describe("docs/licences.md, the PHP snippet", () => {
  // Runs only where php with sodium is installed (`which php`): elsewhere vitest lists it as skipped, by this name.
  it.runIf(hasPhpSodium)(
    "only where php with sodium is installed: verifies a signed answer, refuses a changed byte",
    async () => {
      const file = path.join(dir, "verify.php");
      await writeFile(
        file,
        `${snippet("php-verify")}\n$in = json_decode(stream_get_contents(STDIN), true);\n` +
          `echo gatehouse_licence_verify($in['body'], $in['signature'], $in['key']) ? 'true' : 'false';\n`,
      );
      const run = (body: string, signature: string) =>
        spawnSync(PHP, [file], { input: JSON.stringify({ body, signature, key: publicKey }), encoding: "utf8" });
      const good = run(BODY, signer.sign(BODY));
      expect(good.stdout, good.stderr).toBe("true");
      expect(run(changed, signer.sign(BODY)).stdout).toBe("false");
      expect(run(BODY, otherSigner.sign(BODY)).stdout).toBe("false");
    },
  );
});
