"use client";
// Admin → Licences in the browser: the public key (base64 and PEM, each with Copy) and the well-known URL, then one
// line per item (on or off, its limits) that opens its policy's form, saved whole (PUT /api/admin/licences/items/{id}),
// the gateway's field errors beside their fields.
import type { FormEvent } from "react";
import useSWR from "swr";

import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { FormErrorBanner } from "@/components/ui/form-error-banner";
import { LocalTime } from "@/components/ui/local-time";
import { TextField } from "@/components/ui/text-field";
import { useToast } from "@/components/ui/toast";
import { useApiForm } from "@/components/use-api-form";
import type { LicenceItem, LicencesAdmin } from "@/lib/contract/licence-staff";
import type { LicencePolicy } from "@/lib/contract/licences";
import type { ApiRequestError } from "@/lib/portal/api-client";

import formStyles from "../../forms.module.css";
import styles from "./licences.module.css";

const STATE_PATH = "/api/admin/licences";

/** A number field's value as the API takes it: a number, or the text when it is not one (the API says why). */
const numberOf = (form: FormData, name: string): number | string => {
  const text = String(form.get(name) ?? "").trim();
  return text !== "" && !Number.isNaN(Number(text)) ? Number(text) : text;
};

/** The never-counted domains, one a line (commas too); empty lines dropped. */
const patternsOf = (text: string): string[] =>
  text
    .split(/[\n,]+/)
    .map((pattern) => pattern.trim())
    .filter(Boolean);

export function LicencesView({ initialState }: { initialState: LicencesAdmin }) {
  const { data, mutate } = useSWR<{ data: LicencesAdmin }, ApiRequestError>(STATE_PATH, {
    fallbackData: { data: initialState },
  });
  const state = data?.data ?? initialState;
  const refresh = () => mutate();
  return (
    <>
      <KeysCard state={state} />
      <Card title="Policies">
        <p>
          Each item of the seller&apos;s account, and whether the licence API answers for it: open one to set how many
          activations a licence allows, the domains that never count and what a refund does.
        </p>
        {state.items.length === 0 ? (
          <EmptyState title="No items">The seller account has no items to set a licence policy for.</EmptyState>
        ) : (
          state.items.map((item) => <PolicyForm key={item.item_id} item={item} refresh={refresh} />)
        )}
      </Card>
    </>
  );
}

function CopyButton({ text, what }: { text: string; what: string }) {
  const toast = useToast();
  return (
    <Button
      size="sm"
      variant="secondary"
      aria-label={`Copy ${what}`}
      onClick={() =>
        void navigator.clipboard
          ?.writeText(text)
          .then(() => toast.success(`Copied ${what}.`))
          .catch(() => toast.error(`Could not copy ${what}: select it and copy it by hand.`))
      }
    >
      Copy
    </Button>
  );
}

function KeysCard({ state }: { state: LicencesAdmin }) {
  const url = state.keys_url ?? state.keys_path;
  return (
    <Card title="Public key">
      <p>
        Every answer of the licence API is signed with Ed25519 (the signature in the Gatehouse-Signature header), so
        that an installed copy can verify it offline. Put this key in your product; the keys are also published at{" "}
        <code className={styles.value} data-testid="licence-keys-url">
          {url}
        </code>{" "}
        <CopyButton text={url} what="the keys' URL" />
      </p>
      {state.keys.map((key) => (
        <div key={key.id} className={styles.key} data-testid="licence-key">
          <p>
            Key <code>{key.id}</code>, made <LocalTime iso={key.created_at} display="both" />.
          </p>
          <p>
            Base64 (PHP&apos;s sodium, WebCrypto):{" "}
            <code className={styles.value} data-testid="licence-key-base64">
              {key.public_key}
            </code>{" "}
            <CopyButton text={key.public_key} what="the key in base64" />
          </p>
          <p>PEM (Node&apos;s crypto, OpenSSL):</p>
          <pre className={styles.pem} data-testid="licence-key-pem">
            {key.pem}
          </pre>
          <CopyButton text={key.pem} what="the key as PEM" />
        </div>
      ))}
    </Card>
  );
}

/** The policy form's fields, by the gateway's names for them: their errors show beside them, not in the banner. */
const POLICY_FIELDS = ["enabled", "limits.regular", "limits.extended", "never_count", "revoked_deactivates"] as const;

function PolicyForm({ item, refresh }: { item: LicenceItem; refresh: () => Promise<unknown> }) {
  const { busy, fields, failure, send } = useApiForm({
    fieldNames: [...POLICY_FIELDS, ...Array.from({ length: 50 }, (_, index) => `never_count.${index}`)],
  });
  const toast = useToast();
  const policy: LicencePolicy = item.policy;
  const id = (name: string) => `field-licence-${item.item_id}-${name}`;

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const body = {
      enabled: form.get("enabled") === "on",
      limits: { regular: numberOf(form, "limits.regular"), extended: numberOf(form, "limits.extended") },
      never_count: patternsOf(String(form.get("never_count") ?? "")),
      revoked_deactivates: form.get("revoked_deactivates") === "on",
    };
    const answer = await send<{ data: LicencePolicy }>(`/api/admin/licences/items/${item.item_id}`, {
      method: "PUT",
      body,
      refresh,
    });
    if (answer === false) return;
    toast.success(
      answer.data.enabled
        ? `Saved: the licence API answers for ${item.item_name}.`
        : `Saved: the licence API is off for ${item.item_name}.`,
    );
  };

  const neverCountError =
    fields.never_count ?? Object.entries(fields).find(([name]) => name.startsWith("never_count."))?.[1];
  return (
    // One item a line; its form opens under it (a seller with 40 items gets a list, not 40 forms).
    <details className={styles.item}>
      <summary className={styles.summary}>
        <span className={styles.name}>{item.item_name}</span>{" "}
        {policy.enabled ? (
          <Badge tone="success" mark="✓">
            On
          </Badge>
        ) : (
          <Badge tone="neutral" mark="○">
            Off
          </Badge>
        )}{" "}
        <span className={styles.limits}>
          Regular {policy.limits.regular}, Extended {policy.limits.extended}
        </span>
      </summary>
      {/* Keyed by the saved policy: a save (here or elsewhere) shows what is stored. */}
      <form
        key={policy.updated_at ?? "defaults"}
        noValidate
        className={formStyles.form}
        onSubmit={(event) => void submit(event)}
        aria-label={`Licence policy of ${item.item_name}`}
      >
        <FormErrorBanner title="The policy was not saved" message={failure?.message} requestId={failure?.requestId} />
        <label>
          <input type="checkbox" name="enabled" defaultChecked={policy.enabled} /> Installed copies of this item may
          activate, validate and deactivate themselves (the licence API is on)
        </label>
        {fields.enabled ? <p role="alert">{fields.enabled}</p> : null}
        <fieldset>
          <legend>Activations each licence allows</legend>
          <TextField
            id={id("regular")}
            name="limits.regular"
            type="number"
            min={0}
            label="Regular licence"
            defaultValue={policy.limits.regular}
            error={fields["limits.regular"]}
          />
          <TextField
            id={id("extended")}
            name="limits.extended"
            type="number"
            min={0}
            label="Extended licence"
            defaultValue={policy.limits.extended}
            error={fields["limits.extended"]}
          />
        </fieldset>
        <TextField
          id={id("never-count")}
          name="never_count"
          multiline
          rows={4}
          label="Domains that never count"
          hint="One a line: a domain (localhost), a wildcard before one (*.test: its subdomains) or after a first label (staging.*)"
          defaultValue={policy.never_count.join("\n")}
          error={neverCountError}
        />
        <label>
          <input type="checkbox" name="revoked_deactivates" defaultChecked={policy.revoked_deactivates} /> A refunded or
          reversed purchase releases every activation of its code
        </label>
        {fields.revoked_deactivates ? <p role="alert">{fields.revoked_deactivates}</p> : null}
        {policy.updated_at ? (
          <p>
            Last saved <LocalTime iso={policy.updated_at} display="both" />
            {policy.updated_by ? ` by ${policy.updated_by}` : ""}.
          </p>
        ) : (
          <p>The defaults: no admin has saved a policy for this item yet.</p>
        )}
        <div className={formStyles.buttons}>
          <Button type="submit" variant="primary" loading={busy} loadingText="Saving…">
            Save policy
          </Button>
        </div>
      </form>
    </details>
  );
}
