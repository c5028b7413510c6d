"use client";
// The users table with "Add user" and "Edit" dialogs. Every change goes to the admin API; the table is
// reloaded from it afterwards, and a toast says what was done only once the API said so. Users who sign in with
// single sign-on show their provider and last sign-in; their role comes from the provider's groups unless an
// admin pins it here, and they have no password to set.
import { useState, type FormEvent, type ReactNode } from "react";
import useSWR from "swr";

import { Badge, RoleBadge, ROLE_LABELS } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { DataTable, type Column } from "@/components/ui/data-table";
import { Modal } from "@/components/ui/dialog";
import { ErrorSummary } from "@/components/ui/error-summary";
import { FormErrorBanner } from "@/components/ui/form-error-banner";
import { LocalTime } from "@/components/ui/local-time";
import { RadioGroup } from "@/components/ui/radio-group";
import { SelectField, type SelectFieldProps } from "@/components/ui/select-field";
import { TextField } from "@/components/ui/text-field";
import { useToast } from "@/components/ui/toast";
import type { UserOutput } from "@/lib/contract/accounts";
import { PASSWORD_MIN_LENGTH, ROLES, type Role } from "@/lib/contract/values";
import { apiRequest, ApiRequestError } from "@/lib/portal/api-client";
import { presentErrors } from "@/lib/portal/forms";

import formStyles from "../../forms.module.css";
import styles from "../../lists.module.css";

const ROLE_OPTIONS = ROLES.map((role) => ({ value: role, label: ROLE_LABELS[role] }));
const PASSWORD_HINT = `At least ${PASSWORD_MIN_LENGTH} characters, hard to guess (a phrase of unrelated words works well), not the email.`;

type Fields = Partial<
  Record<"email" | "name" | "role" | "password" | "disabled" | "role_pinned" | "revoke_tokens", string>
>;
const LABELS = {
  email: "Email",
  name: "Name",
  role: "Role",
  password: "Password",
  disabled: "Access",
  role_pinned: "Role source",
  revoke_tokens: "API tokens",
};

/** The identity provider the portal is configured with (its issuer names its users). */
export interface ProviderInfo {
  issuer: string;
  label: string;
}

/** How a user signs in, for people: the provider's label (or host, for another issuer), or "Password". */
function signInMethod(user: UserOutput, provider: ProviderInfo | null): string {
  if (!user.identity) return "Password";
  if (provider && user.identity.issuer === provider.issuer) return provider.label;
  try {
    return new URL(user.identity.issuer).host;
  } catch {
    return user.identity.issuer;
  }
}

interface Failure {
  message: string;
  requestId?: string;
}

/** Splits an API error into field messages (shown inline) and the rest (shown above the form). */
function splitError(error: unknown): { fields: Fields; failure: Failure | null } {
  if (!(error instanceof ApiRequestError)) throw error;
  const fields: Fields = {};
  for (const name of Object.keys(LABELS) as (keyof Fields)[])
    if (error.fields?.[name]) fields[name] = error.fields[name];
  const hasFields = Object.keys(fields).length > 0;
  return { fields, failure: hasFields ? null : { message: error.message, requestId: error.requestId } };
}

export function UsersView({
  initialUsers,
  currentUserId,
  provider = null,
}: {
  initialUsers: UserOutput[];
  currentUserId: string;
  provider?: ProviderInfo | null;
}) {
  const { data, error, isValidating, mutate } = useSWR<{ data: UserOutput[] }, ApiRequestError>("/api/admin/users", {
    fallbackData: { data: initialUsers },
  });
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<UserOutput | null>(null);

  const columns: Column<UserOutput>[] = [
    {
      id: "name",
      header: "Name",
      rowHeader: true,
      priority: "primary",
      wrap: "wrap",
      cell: (user) => (user.id === currentUserId ? `${user.name} (you)` : user.name),
    },
    {
      id: "email",
      header: "Email",
      wrap: "wrap",
      fixedOrder: { direction: "asc", text: "A to Z" },
      cell: (user) => user.email,
    },
    {
      id: "role",
      header: "Role",
      wrap: "nowrap",
      cell: (user) => (
        <>
          <RoleBadge role={user.role} />
          {user.identity && user.role_pinned ? <span className={styles.muted}> pinned</span> : null}
        </>
      ),
    },
    {
      id: "status",
      header: "Access",
      priority: "primary",
      wrap: "nowrap",
      cell: (user) =>
        user.disabled ? (
          <Badge tone="error" mark="■">
            Disabled
          </Badge>
        ) : (
          <Badge tone="success" mark="●">
            Active
          </Badge>
        ),
    },
    {
      id: "sign-in",
      header: "Sign-in",
      wrap: "wrap",
      cell: (user) => (
        <>
          {signInMethod(user, provider)}
          <br />
          <span className={styles.muted}>
            {user.last_sign_in_at ? (
              <>
                signed in <LocalTime iso={user.last_sign_in_at} />
              </>
            ) : (
              "not signed in yet"
            )}
          </span>
        </>
      ),
    },
    {
      id: "created",
      header: "Added",
      wrap: "nowrap",
      cell: (user) => <LocalTime iso={user.created_at} display="date" />,
    },
    {
      id: "actions",
      header: "Actions",
      wrap: "nowrap",
      cell: (user) => (
        <Button size="sm" variant="secondary" aria-label={`Edit ${user.name}`} onClick={() => setEditing(user)}>
          Edit
        </Button>
      ),
    },
  ];

  return (
    <section aria-label="Users list">
      <div className={styles.clear}>
        <Button variant="primary" onClick={() => setAdding(true)}>
          Add user
        </Button>
      </div>
      <DataTable
        caption="Users"
        captionHidden
        columns={columns}
        rows={data?.data}
        rowKey={(user) => user.id}
        loading={isValidating}
        error={
          error
            ? {
                title: "The users could not be loaded",
                message: error.message,
                requestId: error.requestId,
                onRetry: () => void mutate(),
              }
            : null
        }
      />
      <AddUserDialog open={adding} onClose={() => setAdding(false)} onAdded={() => void mutate()} />
      <EditUserDialog
        user={editing}
        provider={provider}
        onClose={() => setEditing(null)}
        onSaved={() => void mutate()}
      />
    </section>
  );
}

/**
 * What a dialog's form keeps: its field errors, a failure of the whole form, and whether it is being sent. `send`
 * runs the request; on success the dialog closes, on failure the gateway's field errors and message show in it.
 */
function useDialogForm(onClose: () => void) {
  const [fields, setFields] = useState<Fields>({});
  const [failure, setFailure] = useState<Failure | null>(null);
  const [busy, setBusy] = useState(false);

  const close = () => {
    setFields({});
    setFailure(null);
    onClose();
  };

  const send = async (request: () => Promise<void>) => {
    setBusy(true);
    try {
      await request();
      close();
    } catch (error) {
      const split = splitError(error);
      setFields(split.fields);
      setFailure(split.failure);
    } finally {
      setBusy(false);
    }
  };

  return { fields, setFields, failure, setFailure, busy, setBusy, close, send };
}

/** The role select of both dialogs: every role, named as its badge names it. */
function RoleField(props: Omit<SelectFieldProps, "name" | "label" | "options">) {
  return <SelectField {...props} name="role" label={LABELS.role} options={ROLE_OPTIONS} />;
}

/** A dialog form's buttons: its submit, any others it has, and Cancel; none can be pressed while it is sent. */
function DialogButtons({
  submit,
  loadingText,
  busy,
  onCancel,
  children,
}: {
  submit: string;
  loadingText: string;
  busy: boolean;
  onCancel: () => void;
  children?: ReactNode;
}) {
  return (
    <div className={formStyles.buttons}>
      <Button type="submit" variant="primary" loading={busy} loadingText={loadingText}>
        {submit}
      </Button>
      {children}
      <Button variant="secondary" onClick={onCancel} disabled={busy}>
        Cancel
      </Button>
    </div>
  );
}

function AddUserDialog({ open, onClose, onAdded }: { open: boolean; onClose: () => void; onAdded: () => void }) {
  const toast = useToast();
  const { fields, setFields, failure, setFailure, busy, close, send } = useDialogForm(onClose);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    // A service account has no password: it never signs in, and acts through API tokens an admin makes for it.
    const service = form.get("service") === "on";
    const password = String(form.get("password") ?? "");
    const body = {
      email: String(form.get("email") ?? "").trim(),
      name: String(form.get("name") ?? "").trim(),
      role: String(form.get("role") ?? "viewer"),
      ...(service ? { service: true } : { password }),
    };
    const found: Fields = {
      email: body.email ? undefined : "Enter the person's email address.",
      name: body.name ? undefined : "Enter the person's name.",
      password:
        service || password.length >= PASSWORD_MIN_LENGTH
          ? undefined
          : `Enter a password of at least ${PASSWORD_MIN_LENGTH} characters.`,
    };
    setFields(found);
    setFailure(null);
    if (found.email || found.name || found.password) return;
    await send(async () => {
      const { data } = await apiRequest<{ data: UserOutput }>("/api/admin/users", { method: "POST", body });
      toast.success(`Added ${data.name} (${data.email}) as ${ROLE_LABELS[data.role]}.`);
      onAdded();
    });
  };

  return (
    <Modal open={open} onClose={close} title="Add a user" dismissible={!busy}>
      <form noValidate className={formStyles.form} onSubmit={(event) => void submit(event)} aria-label="Add a user">
        <ErrorSummary
          errors={presentErrors(fields)}
          labels={LABELS}
          ids={{ email: "field-new-email", name: "field-new-name", password: "field-new-password" }}
        />
        <FormErrorBanner title="The user was not added" message={failure?.message} requestId={failure?.requestId} />
        <TextField
          id="field-new-email"
          name="email"
          label={LABELS.email}
          type="email"
          autoComplete="off"
          required
          error={fields.email}
        />
        <TextField
          id="field-new-name"
          name="name"
          label={LABELS.name}
          autoComplete="off"
          required
          error={fields.name}
        />
        <RoleField id="field-new-role" defaultValue="viewer" error={fields.role} />
        <label>
          <input type="checkbox" name="service" /> Service account: no password, never signs in; acts only through the
          API tokens you make for it
        </label>
        <TextField
          id="field-new-password"
          name="password"
          label={LABELS.password}
          type="password"
          autoComplete="new-password"
          hint={`${PASSWORD_HINT} Give it to the person through a safe channel. Not needed for a service account.`}
          error={fields.password}
        />
        <DialogButtons submit="Add user" loadingText="Adding…" busy={busy} onCancel={close} />
      </form>
    </Modal>
  );
}

function EditUserDialog({
  user,
  provider,
  onClose,
  onSaved,
}: {
  user: UserOutput | null;
  provider: ProviderInfo | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const toast = useToast();
  // For a single sign-on user: whether the role is pinned; choosing another role pins it (else the next sign-in
  // would take it from the groups again), and the admin may still unpin it.
  const [pinned, setPinned] = useState<boolean | null>(null);
  const rolePinned = pinned ?? user?.role_pinned ?? false;
  const { fields, setFields, failure, setFailure, busy, setBusy, close, send } = useDialogForm(() => {
    setPinned(null);
    onClose();
  });

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!user) return;
    const form = new FormData(event.currentTarget);
    const name = String(form.get("name") ?? "").trim();
    const role = String(form.get("role") ?? user.role) as Role;
    const disabled = form.get("access") === "disabled";
    const password = String(form.get("password") ?? "");
    // Only what changed is sent: each change is its own audit fact, and some end the user's sessions.
    const body: Record<string, unknown> = {};
    if (name !== user.name) body.name = name;
    if (role !== user.role) body.role = role;
    if (disabled !== user.disabled) body.disabled = disabled;
    if (password !== "") body.password = password;
    if (user.identity && rolePinned !== user.role_pinned) body.role_pinned = rolePinned;
    // A reset password or disabling revokes the person's API tokens unless the admin unticks the box.
    if (password !== "" || (disabled && !user.disabled)) body.revoke_tokens = form.get("revoke_tokens") === "on";
    const found: Fields = {
      name: name ? undefined : "Enter a name.",
      password:
        password === "" || password.length >= PASSWORD_MIN_LENGTH
          ? undefined
          : `A new password needs at least ${PASSWORD_MIN_LENGTH} characters.`,
    };
    setFields(found);
    setFailure(null);
    if (found.name || found.password) return;
    if (Object.keys(body).length === 0) {
      setFailure({ message: "Nothing to change: edit a field first, or cancel." });
      return;
    }
    await send(async () => {
      const { data } = await apiRequest<{ data: UserOutput }>(`/api/admin/users/${user.id}`, { method: "PATCH", body });
      toast.success(`Saved the changes to ${data.name}.`);
      onSaved();
    });
  };

  return (
    <Modal open={user !== null} onClose={close} title={user ? `Edit ${user.name}` : "Edit user"} dismissible={!busy}>
      {user ? (
        <form
          key={user.id}
          noValidate
          className={formStyles.form}
          onSubmit={(event) => void submit(event)}
          aria-label={`Edit ${user.name}`}
        >
          <ErrorSummary
            errors={presentErrors(fields)}
            labels={LABELS}
            ids={{ name: "field-edit-name", password: "field-edit-password" }}
          />
          <FormErrorBanner title="Nothing was saved" message={failure?.message} requestId={failure?.requestId} />
          <p>
            {user.email}
            {user.identity ? (
              <>
                <br />
                Signs in with {signInMethod(user, provider)} (its id for this person:{" "}
                <code>{user.identity.subject}</code>)
              </>
            ) : null}
          </p>
          <TextField
            id="field-edit-name"
            name="name"
            label={LABELS.name}
            defaultValue={user.name}
            required
            error={fields.name}
          />
          <RoleField
            id="field-edit-role"
            defaultValue={user.role}
            error={fields.role}
            onChange={(event) => {
              if (user.identity && event.currentTarget.value !== user.role) setPinned(true);
            }}
          />
          {user.identity ? (
            <RadioGroup
              id="field-edit-role-source"
              name="role_source"
              label={LABELS.role_pinned}
              value={rolePinned ? "pinned" : "groups"}
              onChange={(value) => setPinned(value === "pinned")}
              options={[
                { value: "groups", label: `From the ${signInMethod(user, provider)} groups, at every sign-in` },
                { value: "pinned", label: "Pinned: kept as set here" },
              ]}
              error={fields.role_pinned}
            />
          ) : null}
          <RadioGroup
            id="field-edit-access"
            name="access"
            label={LABELS.disabled}
            inline
            defaultValue={user.disabled ? "disabled" : "active"}
            options={[
              { value: "active", label: "Active" },
              { value: "disabled", label: "Disabled (cannot sign in)" },
            ]}
            error={fields.disabled}
          />
          {/* Neither a single sign-on user nor a service account has a password to set (the API refuses one). */}
          {user.identity || user.service ? null : (
            <TextField
              id="field-edit-password"
              name="password"
              label="New password"
              type="password"
              autoComplete="new-password"
              hint={`Leave it empty to keep the current one. ${PASSWORD_HINT}`}
              error={fields.password}
            />
          )}
          <label>
            <input type="checkbox" name="revoke_tokens" defaultChecked /> Revoke their API tokens too, when the password
            is reset or the account disabled
          </label>
          {fields.revoke_tokens ? <p role="alert">{fields.revoke_tokens}</p> : null}
          <DialogButtons submit="Save changes" loadingText="Saving…" busy={busy} onCancel={close}>
            <Button variant="secondary" onClick={() => void unlock()} disabled={busy}>
              Clear failed sign-ins
            </Button>
          </DialogButtons>
        </form>
      ) : null}
    </Modal>
  );

  /** Lifts the sign-in throttling of the account, from every address (a password reset does it too). */
  async function unlock() {
    if (!user) return;
    setBusy(true);
    setFailure(null);
    try {
      await apiRequest(`/api/admin/users/${user.id}/unlock`, { method: "POST" });
      toast.success(`Cleared the failed sign-ins of ${user.name}: nothing slows or refuses his next sign-in.`);
    } catch (error) {
      setFailure(splitError(error).failure);
    } finally {
      setBusy(false);
    }
  }
}
