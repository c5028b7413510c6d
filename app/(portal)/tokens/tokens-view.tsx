"use client";
// The tokens table with a "Make a token" form. The secret of a new token is shown once, with a copy button and a
// curl line that uses it, in the form's place and focused; the list then only names it. Revoking asks first and takes effect on the next request.
// An admin also sees every person's tokens below his own, and may revoke any of them. Making a token is a sensitive
// action: a session whose last proof is older than STEP_UP_MINUTES is asked for one in place (the step-up dialog,
// which useApiForm opens), and the form is kept.
import { useEffect, useRef, useState, type FormEvent } from "react";
import useSWR from "swr";

import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { DataTable, type Column } from "@/components/ui/data-table";
import { EmptyState } from "@/components/ui/empty-state";
import { FormErrorBanner } from "@/components/ui/form-error-banner";
import { LocalTime } from "@/components/ui/local-time";
import { SelectField } from "@/components/ui/select-field";
import { TextField } from "@/components/ui/text-field";
import { useToast } from "@/components/ui/toast";
import { useApiAction, useApiForm } from "@/components/use-api-form";
import type { TokenOutput } from "@/lib/contract/tokens";
import { TOKEN_EXPIRY_DAYS, type TokenScope } from "@/lib/contract/values";
import type { ApiRequestError } from "@/lib/portal/api-client";

import formStyles from "../forms.module.css";

export interface TokenOwner {
  id: string;
  label: string;
  service: boolean;
  /** The scopes the owner's role allows. */
  scopes: TokenScope[];
}

type Created = TokenOutput & { secret: string };

const STATUS_BADGE = {
  active: { tone: "success", mark: "●", text: "Active" },
  expired: { tone: "warning", mark: "▲", text: "Expired" },
  revoked: { tone: "error", mark: "■", text: "Revoked" },
} as const;

/** The columns of a tokens table; `onRevoke` asks before revoking. */
function tokenColumns(onRevoke: (token: TokenOutput) => void): Column<TokenOutput>[] {
  return [
    { id: "name", header: "Name", rowHeader: true, priority: "primary", wrap: "wrap", cell: (token) => token.name },
    {
      id: "owner",
      header: "Acts as",
      wrap: "wrap",
      cell: (token) => `${token.user.email}${token.user.service ? " (service)" : ""}`,
    },
    { id: "scopes", header: "Scopes", wrap: "wrap", cell: (token) => token.scopes.join(", ") },
    {
      id: "status",
      header: "Status",
      priority: "primary",
      wrap: "nowrap",
      cell: (token) => {
        const badge = STATUS_BADGE[token.status];
        return (
          <Badge tone={badge.tone} mark={badge.mark}>
            {badge.text}
          </Badge>
        );
      },
    },
    {
      id: "created",
      header: "Created",
      wrap: "nowrap",
      fixedOrder: { direction: "desc", text: "Newest first" },
      cell: (token) => <LocalTime iso={token.created_at} display="date" />,
    },
    {
      id: "expires",
      header: "Expires",
      wrap: "nowrap",
      cell: (token) => (token.expires_at ? <LocalTime iso={token.expires_at} display="date" /> : "Never"),
    },
    {
      id: "used",
      header: "Last used",
      wrap: "wrap",
      cell: (token) =>
        token.last_used_at ? (
          <>
            <LocalTime iso={token.last_used_at} /> {token.last_used_ip ? `from ${token.last_used_ip}` : ""}
          </>
        ) : (
          "Never"
        ),
    },
    {
      id: "actions",
      header: "Actions",
      wrap: "nowrap",
      cell: (token) =>
        token.status === "revoked" ? null : (
          <Button
            size="sm"
            variant="secondary"
            aria-label={`Revoke ${token.name} of ${token.user.email}`}
            onClick={() => onRevoke(token)}
          >
            Revoke
          </Button>
        ),
    },
  ];
}

export function TokensView({
  initialTokens,
  initialEveryone,
  owners,
}: {
  initialTokens: TokenOutput[];
  initialEveryone: TokenOutput[] | null;
  owners: TokenOwner[];
}) {
  const { data, error, isValidating, mutate } = useSWR<{ data: TokenOutput[] }, ApiRequestError>("/api/tokens", {
    fallbackData: { data: initialTokens },
  });
  // Admins: every person's tokens (null for anyone else, who is never sent them).
  const everyone = useSWR<{ data: TokenOutput[] }, ApiRequestError>(initialEveryone ? "/api/admin/tokens" : null, {
    fallbackData: initialEveryone ? { data: initialEveryone } : undefined,
  });
  const [created, setCreated] = useState<Created | null>(null);
  const [revoking, setRevoking] = useState<TokenOutput | null>(null);
  const revocation = useApiAction();
  const toast = useToast();
  const columns = tokenColumns(setRevoking);

  return (
    <>
      {/* The secret takes the form's place, where the person is looking, until Done brings the form back. */}
      {created ? (
        <NewSecret token={created} onDone={() => setCreated(null)} />
      ) : (
        <MakeTokenForm
          owners={owners}
          onCreated={(token) => {
            setCreated(token);
            void mutate();
            if (initialEveryone) void everyone.mutate();
          }}
        />
      )}
      <section aria-label="Tokens list">
        <DataTable
          caption="API tokens"
          columns={columns}
          rows={data?.data}
          rowKey={(token) => token.id}
          loading={isValidating}
          empty={<EmptyState title="No tokens yet">Make one above for a script or an integration.</EmptyState>}
          error={
            error
              ? {
                  title: "The tokens could not be loaded",
                  message: error.message,
                  requestId: error.requestId,
                  onRetry: () => void mutate(),
                }
              : null
          }
        />
      </section>
      {initialEveryone ? (
        <section aria-label="Every person's tokens">
          <h2>Every person&apos;s tokens</h2>
          <p>
            Everyone&apos;s tokens, for recovering an account: revoke any that should no longer work. A password reset
            or disabling on the Users page revokes a person&apos;s tokens too.
          </p>
          <DataTable
            caption="Every person's API tokens"
            columns={columns}
            rows={everyone.data?.data}
            rowKey={(token) => token.id}
            loading={everyone.isValidating}
            empty={<EmptyState title="No tokens yet">Nobody has made a token.</EmptyState>}
            error={
              everyone.error
                ? {
                    title: "The tokens could not be loaded",
                    message: everyone.error.message,
                    requestId: everyone.error.requestId,
                    onRetry: () => void everyone.mutate(),
                  }
                : null
            }
          />
        </section>
      ) : null}
      <ConfirmDialog
        open={revoking !== null}
        onClose={() => setRevoking(null)}
        title={`Revoke the token ${revoking?.name ?? ""}?`}
        confirmLabel="Revoke token"
        busyLabel="Revoking…"
        variant="danger"
        action={revocation}
        onConfirm={async () => {
          if (!revoking) return false;
          const revoked = await revocation.send(`/api/tokens/${revoking.id}`, {
            method: "DELETE",
            refresh: () => Promise.all([mutate(), initialEveryone ? everyone.mutate() : null]),
          });
          if (revoked === false) return false;
          toast.success(`Revoked ${revoking.name}: its next request is refused.`);
          return true;
        }}
      >
        Anything still using it{revoking ? ` (it acts as ${revoking.user.email})` : ""} is refused from its next
        request. This cannot be undone.
      </ConfirmDialog>
    </>
  );
}

function MakeTokenForm({ owners, onCreated }: { owners: TokenOwner[]; onCreated: (token: Created) => void }) {
  const [ownerId, setOwnerId] = useState(owners[0]!.id);
  const [expiry, setExpiry] = useState("30");
  const { busy, fields, failure, send } = useApiForm();
  const owner = owners.find((o) => o.id === ownerId) ?? owners[0]!;

  const expiryOptions = [
    ...TOKEN_EXPIRY_DAYS.map((days) => ({ value: String(days), label: `${days} days` })),
    { value: "date", label: "On a date…" },
    ...(owner.service ? [{ value: "never", label: "Never (service account only)" }] : []),
  ];

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const scopes = form.getAll("scopes").map(String);
    const ips = String(form.get("allowed_ips") ?? "")
      .split(/[\s,]+/)
      .filter((ip) => ip !== "");
    const body: Record<string, unknown> = { name: String(form.get("name") ?? "").trim(), scopes };
    if (owner.id !== owners[0]!.id) body.user_id = owner.id;
    if (expiry === "never") body.never_expires = true;
    else if (expiry === "date")
      body.expires_at = form.get("expires_on")
        ? new Date(`${String(form.get("expires_on"))}T23:59:59Z`).toISOString()
        : "";
    else body.expires_in_days = Number(expiry);
    if (ips.length > 0) body.allowed_ips = ips;
    const answer = await send<{ data: Created }>("/api/tokens", { method: "POST", body, reset: event.currentTarget });
    if (answer) onCreated(answer.data);
  };

  return (
    <Card title="Make a token">
      <form noValidate className={formStyles.form} onSubmit={(event) => void submit(event)} aria-label="Make a token">
        <FormErrorBanner title="No token was made" message={failure?.message} requestId={failure?.requestId} />
        {owners.length > 1 ? (
          <SelectField
            id="field-token-owner"
            name="owner"
            label="Acts as"
            options={owners.map((o) => ({ value: o.id, label: o.label }))}
            value={ownerId}
            onChange={(event) => setOwnerId(event.target.value)}
            error={fields.user_id}
          />
        ) : null}
        <TextField
          id="field-token-name"
          name="name"
          label="Name"
          hint="What it is for, e.g. helpdesk or licence server."
          required
          error={fields.name}
        />
        <fieldset>
          <legend>Scopes</legend>
          {owner.scopes.map((scope) => (
            <label key={scope} style={{ display: "block" }}>
              <input type="checkbox" name="scopes" value={scope} /> {scope}
            </label>
          ))}
          {fields.scopes ? <p role="alert">{fields.scopes}</p> : null}
        </fieldset>
        <SelectField
          id="field-token-expiry"
          name="expiry"
          label="Expires"
          options={expiryOptions}
          value={expiry}
          onChange={(event) => setExpiry(event.target.value)}
          error={fields.expires_in_days ?? fields.never_expires}
        />
        {expiry === "date" ? (
          <TextField id="field-token-date" name="expires_on" label="Expires on" type="date" error={fields.expires_at} />
        ) : null}
        {expiry === "never" ? (
          <p role="note">
            A token that never expires stays valid until someone revokes it: keep it somewhere safe and revoke it when
            it is no longer needed.
          </p>
        ) : null}
        <TextField
          id="field-token-ips"
          name="allowed_ips"
          label="Allowed client addresses (optional)"
          hint="Addresses or CIDR ranges, separated by spaces or commas, e.g. 203.0.113.0/24. Empty: any address."
          error={Object.entries(fields).find(([name]) => name.startsWith("allowed_ips"))?.[1]}
        />
        <div className={formStyles.buttons}>
          <Button type="submit" variant="primary" loading={busy} loadingText="Making…">
            Make token
          </Button>
        </div>
      </form>
    </Card>
  );
}

export function NewSecret({ token, onDone }: { token: { name: string; secret: string }; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  // Focus on Copy, the next thing to do, which also scrolls the secret into view under a long form.
  const copyRef = useRef<HTMLButtonElement>(null);
  useEffect(() => copyRef.current?.focus(), []);
  const origin = typeof window === "undefined" ? "" : window.location.origin;
  const curl = `curl -H "Authorization: Bearer ${token.secret}" ${origin}/api/auth/me`;
  return (
    <Card title={`Your new token: ${token.name}`}>
      <p>Copy it now: Gatehouse keeps only a hash of it and cannot show it again.</p>
      <p>
        <code data-testid="token-secret">{token.secret}</code>{" "}
        <Button
          ref={copyRef}
          size="sm"
          variant="secondary"
          onClick={() => {
            void navigator.clipboard?.writeText(token.secret).then(() => setCopied(true));
          }}
        >
          {copied ? "Copied" : "Copy"}
        </Button>
      </p>
      <p>Try it:</p>
      <pre>
        <code data-testid="token-curl">{curl}</code>
      </pre>
      <Button size="sm" variant="secondary" onClick={onDone}>
        Done
      </Button>
    </Card>
  );
}
