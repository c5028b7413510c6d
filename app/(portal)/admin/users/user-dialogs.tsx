"use client";
// The "Add user" and "Edit" dialogs of the users page. Each sends its form to the admin API through useApiForm
// and closes once the API said yes; a toast then says what was done.
import { useState, type FormEvent, type ReactNode } from "react";

import { ROLE_LABELS } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Modal } from "@/components/ui/dialog";
import { ErrorSummary } from "@/components/ui/error-summary";
import { FormErrorBanner } from "@/components/ui/form-error-banner";
import { RadioGroup } from "@/components/ui/radio-group";
import { SelectField, type SelectFieldProps } from "@/components/ui/select-field";
import { TextField } from "@/components/ui/text-field";
import { useToast } from "@/components/ui/toast";
import { useApiForm, type FieldErrors } from "@/components/use-api-form";
import type { UserOutput } from "@/lib/contract/accounts";
import { PASSWORD_MIN_LENGTH, ROLES, type Role } from "@/lib/contract/values";
import { apiRequest } from "@/lib/portal/api-client";
import { presentErrors } from "@/lib/portal/forms";

import formStyles from "../../forms.module.css";

const ROLE_OPTIONS = ROLES.map((role) => ({ value: role, label: ROLE_LABELS[role] }));
const PASSWORD_HINT = `At least ${PASSWORD_MIN_LENGTH} characters, hard to guess (a phrase of unrelated words works well), not the email.`;

const LABELS = {
  email: "Email",
  name: "Name",
  role: "Role",
  password: "Password",
  disabled: "Access",
  role_pinned: "Role source",
  revoke_tokens: "API tokens",
};
// A field message the gateway sends for a field of these dialogs shows beside it; any other goes to the banner.
const FIELD_NAMES = Object.keys(LABELS);

/** The identity provider the portal is configured with (its issuer names its users). */
export interface ProviderInfo {
  issuer: string;
  label: string;
}

/** How a user signs in, for people: the provider's label (or host, for another issuer), or "Password". */
export function signInMethod(user: UserOutput, provider: ProviderInfo | null): string {
  if (!user.identity) return "Password";
  if (provider && user.identity.issuer === provider.issuer) return provider.label;
  try {
    return new URL(user.identity.issuer).host;
  } catch {
    return user.identity.issuer;
  }
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

export function AddUserDialog({ open, onClose, onAdded }: { open: boolean; onClose: () => void; onAdded: () => void }) {
  const toast = useToast();
  const { busy, fields, failure, check, send, clear } = useApiForm({ fieldNames: FIELD_NAMES });
  const close = () => {
    clear();
    onClose();
  };

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
    const found: FieldErrors = {
      email: body.email ? undefined : "Enter the person's email address.",
      name: body.name ? undefined : "Enter the person's name.",
      password:
        service || password.length >= PASSWORD_MIN_LENGTH
          ? undefined
          : `Enter a password of at least ${PASSWORD_MIN_LENGTH} characters.`,
    };
    if (!check(found)) return;
    const answer = await send<{ data: UserOutput }>("/api/admin/users", { method: "POST", body });
    if (!answer) return;
    toast.success(`Added ${answer.data.name} (${answer.data.email}) as ${ROLE_LABELS[answer.data.role]}.`);
    onAdded();
    close();
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

export function EditUserDialog({
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
  const { busy, fields, failure, check, fail, send, clear } = useApiForm({ fieldNames: FIELD_NAMES });
  const close = () => {
    clear();
    setPinned(null);
    onClose();
  };

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
    const found: FieldErrors = {
      name: name ? undefined : "Enter a name.",
      password:
        password === "" || password.length >= PASSWORD_MIN_LENGTH
          ? undefined
          : `A new password needs at least ${PASSWORD_MIN_LENGTH} characters.`,
    };
    if (!check(found)) return;
    if (Object.keys(body).length === 0) {
      fail({ message: "Nothing to change: edit a field first, or cancel." });
      return;
    }
    const answer = await send<{ data: UserOutput }>(`/api/admin/users/${user.id}`, { method: "PATCH", body });
    if (!answer) return;
    const saved = answer.data;
    if (body.disabled === true) {
      // Disabling is taken back in one click; revoked tokens are not (the toast after Undo says so).
      const tokensRevoked = body.revoke_tokens === true;
      toast.success(`Disabled ${saved.name}: they cannot sign in.`, {
        undo: async () => {
          await apiRequest(`/api/admin/users/${saved.id}`, { method: "PATCH", body: { disabled: false } });
          onSaved();
          return `${saved.name} can sign in again${tokensRevoked ? "; their API tokens stay revoked" : ""}.`;
        },
      });
    } else {
      toast.success(`Saved the changes to ${saved.name}.`);
    }
    onSaved();
    close();
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
    if ((await send(`/api/admin/users/${user.id}/unlock`, { method: "POST" })) !== false)
      toast.success(`Cleared the failed sign-ins of ${user.name}: nothing slows or refuses his next sign-in.`);
  }
}
