"use client";
// The tokens table with a "Make a token" form. The secret of a new token is shown once, with a copy button and a
// curl line that uses it, in the form's place and focused; the list then only names it. Revoking asks first and takes effect on the next request.
// An admin also sees every person's tokens below his own, and may revoke any of them. Making a token is a sensitive
// action: a session whose last proof is older than STEP_UP_MINUTES is asked for one in place (the step-up dialog,
// which useApiForm opens), and the form is kept. Each token may have its own per-minute limit and monthly quota,
// set when it is made and changed with "Limits" (in the form's place); below the lists, the last 30 days of usage
// per token, day and operation by outcome, and which tokens used the most of each upstream.
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
import type { TokenOutput, TokenUsageOutput } from "@/lib/contract/tokens";
import {
  TOKEN_EXPIRY_DAYS,
  TOKEN_USAGE_OUTCOMES,
  type TokenScope,
  type TokenUsageOutcome,
} from "@/lib/contract/values";
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

const count = (n: number) => n.toLocaleString("en");

/** A token's own limits in words: "10 a minute, 1,000 a month", or that it has none. */
export function limitsText(token: Pick<TokenOutput, "rate_limit_per_minute" | "monthly_quota">): string {
  const parts = [
    token.rate_limit_per_minute === null ? null : `${count(token.rate_limit_per_minute)} a minute`,
    token.monthly_quota === null ? null : `${count(token.monthly_quota)} a month`,
  ].filter((part) => part !== null);
  return parts.length === 0 ? "None of its own" : parts.join(", ");
}

/** A limit field's value for the API: empty is none (null), anything else the number typed (the API checks it). */
function limitValue(text: FormDataEntryValue | null): number | null {
  const trimmed = String(text ?? "").trim();
  return trimmed === "" ? null : Number(trimmed);
}

/** The columns of a tokens table; `onRevoke` asks before revoking, `onLimits` opens its limits' form. */
function tokenColumns(
  onRevoke: (token: TokenOutput) => void,
  onLimits: (token: TokenOutput) => void,
): Column<TokenOutput>[] {
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
    { id: "limits", header: "Limits", wrap: "wrap", cell: (token) => limitsText(token) },
    {
      id: "actions",
      header: "Actions",
      wrap: "nowrap",
      cell: (token) =>
        token.status === "revoked" ? null : (
          <>
            <Button
              size="sm"
              variant="secondary"
              aria-label={`Limits of ${token.name} of ${token.user.email}`}
              onClick={() => onLimits(token)}
            >
              Limits
            </Button>{" "}
            <Button
              size="sm"
              variant="secondary"
              aria-label={`Revoke ${token.name} of ${token.user.email}`}
              onClick={() => onRevoke(token)}
            >
              Revoke
            </Button>
          </>
        ),
    },
  ];
}

export function TokensView({
  initialTokens,
  initialEveryone,
  initialUsage,
  owners,
}: {
  initialTokens: TokenOutput[];
  initialEveryone: TokenOutput[] | null;
  initialUsage: TokenUsageOutput;
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
  const [limiting, setLimiting] = useState<TokenOutput | null>(null);
  const revocation = useApiAction();
  const toast = useToast();
  const columns = tokenColumns(setRevoking, (token) => {
    setCreated(null);
    setLimiting(token);
  });
  const known = [...(data?.data ?? []), ...(everyone.data?.data ?? [])];

  return (
    <>
      {/* The secret takes the form's place, where the person is looking, until Done brings the form back. */}
      {created ? (
        <NewSecret token={created} onDone={() => setCreated(null)} />
      ) : limiting ? (
        <LimitsForm
          token={limiting}
          onDone={(changed) => {
            setLimiting(null);
            if (!changed) return;
            toast.success(`${changed.name}: ${limitsText(changed)}.`);
            void mutate();
            if (initialEveryone) void everyone.mutate();
          }}
        />
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
      <UsageSection initialUsage={initialUsage} tokens={known} />
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
    const perMinute = limitValue(form.get("rate_limit_per_minute"));
    const perMonth = limitValue(form.get("monthly_quota"));
    if (perMinute !== null) body.rate_limit_per_minute = perMinute;
    if (perMonth !== null) body.monthly_quota = perMonth;
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
        <TextField
          id="field-token-per-minute"
          name="rate_limit_per_minute"
          label="Requests a minute (optional)"
          hint="Its own limit, counted across every instance. Empty: only your account's limit for all its tokens."
          inputMode="numeric"
          error={fields.rate_limit_per_minute}
        />
        <TextField
          id="field-token-per-month"
          name="monthly_quota"
          label="Requests a month (optional)"
          hint="Its quota for a calendar month (UTC); past it, requests are refused until the month turns. Empty: none."
          inputMode="numeric"
          error={fields.monthly_quota}
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

/** A token's own limits, changed in the make form's place: empty removes a limit. */
function LimitsForm({ token, onDone }: { token: TokenOutput; onDone: (changed: TokenOutput | null) => void }) {
  const { busy, fields, failure, send } = useApiForm();
  const firstRef = useRef<HTMLDivElement>(null);
  useEffect(() => firstRef.current?.querySelector("input")?.focus(), []);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const body = {
      rate_limit_per_minute: limitValue(form.get("rate_limit_per_minute")),
      monthly_quota: limitValue(form.get("monthly_quota")),
    };
    const answer = await send<{ data: TokenOutput }>(`/api/tokens/${token.id}`, { method: "PATCH", body });
    if (answer) onDone(answer.data);
  };
  return (
    <Card title={`Limits of ${token.name}`}>
      <form
        noValidate
        className={formStyles.form}
        onSubmit={(event) => void submit(event)}
        aria-label={`Limits of ${token.name}`}
      >
        <FormErrorBanner
          title="The limits were not changed"
          message={failure?.message}
          requestId={failure?.requestId}
        />
        <div ref={firstRef}>
          <TextField
            id="field-limits-per-minute"
            name="rate_limit_per_minute"
            label="Requests a minute"
            hint="Counted across every instance; past it, 429 until the minute's window ends. Empty: none of its own."
            inputMode="numeric"
            defaultValue={token.rate_limit_per_minute === null ? "" : String(token.rate_limit_per_minute)}
            error={fields.rate_limit_per_minute}
          />
        </div>
        <TextField
          id="field-limits-per-month"
          name="monthly_quota"
          label="Requests a month"
          hint="A calendar month, UTC; past it, 429 until the month turns. Empty: no quota."
          inputMode="numeric"
          defaultValue={token.monthly_quota === null ? "" : String(token.monthly_quota)}
          error={fields.monthly_quota}
        />
        <div className={formStyles.buttons}>
          <Button type="submit" variant="primary" loading={busy} loadingText="Saving…">
            Save limits
          </Button>
          <Button type="button" variant="secondary" onClick={() => onDone(null)}>
            Cancel
          </Button>
        </div>
      </form>
    </Card>
  );
}

const OUTCOME_HEADERS: Record<TokenUsageOutcome, string> = {
  ok: "OK",
  refused: "Refused",
  denied: "Denied",
  limited: "Limited",
  upstream_error: "Upstream error",
  error: "Error",
};

interface UsageLine {
  key: string;
  token: string;
  day: string;
  operation: string;
  counts: Record<TokenUsageOutcome, number>;
}

/** The usage rows as lines of the table: one per token, day and operation, a column per outcome; newest day first. */
export function usageLines(usage: TokenUsageOutput, names: ReadonlyMap<string, string>): UsageLine[] {
  const lines = new Map<string, UsageLine>();
  for (const row of usage.rows) {
    const key = `${row.day} ${row.token_id} ${row.operation}`;
    let line = lines.get(key);
    if (!line) {
      line = {
        key,
        token: names.get(row.token_id) ?? row.token_id,
        day: row.day,
        operation: row.operation,
        counts: Object.fromEntries(TOKEN_USAGE_OUTCOMES.map((o) => [o, 0])) as Record<TokenUsageOutcome, number>,
      };
      lines.set(key, line);
    }
    line.counts[row.outcome] += row.count;
  }
  return [...lines.values()].sort(
    (a, b) => b.day.localeCompare(a.day) || a.token.localeCompare(b.token) || a.operation.localeCompare(b.operation),
  );
}

function UsageSection({ initialUsage, tokens }: { initialUsage: TokenUsageOutput; tokens: TokenOutput[] }) {
  const usage = useSWR<{ data: TokenUsageOutput }, ApiRequestError>("/api/tokens/usage", {
    fallbackData: { data: initialUsage },
  });
  const names = new Map(tokens.map((token) => [token.id, `${token.name} (${token.user.email})`]));
  const lines = usage.data ? usageLines(usage.data.data, names) : undefined;
  const usageColumns: Column<UsageLine>[] = [
    {
      id: "day",
      header: "Day (UTC)",
      wrap: "nowrap",
      fixedOrder: { direction: "desc", text: "Newest first" },
      cell: (l) => l.day,
    },
    { id: "token", header: "Token", rowHeader: true, priority: "primary", wrap: "wrap", cell: (l) => l.token },
    { id: "operation", header: "Operation", wrap: "wrap", cell: (l) => l.operation },
    ...TOKEN_USAGE_OUTCOMES.map((outcome): Column<UsageLine> => ({
      id: outcome,
      header: OUTCOME_HEADERS[outcome],
      align: "end",
      wrap: "nowrap",
      cell: (l) => count(l.counts[outcome]),
    })),
  ];
  const topColumns: Column<{ token_id: string; calls: number }>[] = [
    {
      id: "token",
      header: "Token",
      rowHeader: true,
      priority: "primary",
      wrap: "wrap",
      cell: (t) => names.get(t.token_id) ?? t.token_id,
    },
    { id: "calls", header: "Upstream calls", align: "end", wrap: "nowrap", cell: (t) => count(t.calls) },
  ];
  const error = usage.error
    ? {
        title: "The usage could not be loaded",
        message: usage.error.message,
        requestId: usage.error.requestId,
        onRetry: () => void usage.mutate(),
      }
    : null;
  return (
    <section aria-labelledby="token-usage-heading">
      <h2 id="token-usage-heading">Usage, last 30 days</h2>
      <p>
        Requests with each token per day (UTC) and operation, by how they ended: refused is the request&apos;s own fault
        (bad input, not found), denied a scope the token lacks, limited its limits or quota. Each instance writes its
        counts every few seconds.
      </p>
      <DataTable
        caption="Requests per token, day and operation"
        columns={usageColumns}
        rows={lines}
        rowKey={(line) => line.key}
        loading={usage.isValidating}
        empty={<EmptyState title="No requests yet">Requests with your tokens show here within seconds.</EmptyState>}
        error={error}
      />
      <h3>Who used each upstream&apos;s budget</h3>
      {(["reports", "items"] as const).map((area) => (
        <DataTable
          key={area}
          caption={
            area === "reports" ? "The reports API (area A): calls per token" : "The item API (area B): calls per token"
          }
          columns={topColumns}
          rows={usage.data?.data.top_upstream[area]}
          rowKey={(top) => top.token_id}
          loading={usage.isValidating}
          empty={
            <EmptyState
              title={`No calls to ${area === "reports" ? "the reports API (area A)" : "the item API (area B)"}`}
            >
              No token made a call to it in these 30 days.
            </EmptyState>
          }
          error={error}
        />
      ))}
    </section>
  );
}
