"use client";
// The step-up asked in place (issue 36): a form whose request the gateway answered 403 step_up_required waits here
// (useApiForm asks through StepUpContext) while the person gives a fresh proof — a passkey, an authenticator code,
// a recovery code or his password, whichever he has (GET /api/auth/factors) — to POST /api/auth/step-up. Then the
// form's request is sent again as it was; Cancel (or Escape) leaves the form as it was. One dialog for the portal,
// mounted by its providers; focus goes into it and comes back to where it was.
import { useCallback, useId, useRef, useState, type FormEvent, type ReactNode } from "react";
import useSWR from "swr";

import { Button } from "@/components/ui/button";
import { Modal } from "@/components/ui/dialog";
import { FormErrorBanner } from "@/components/ui/form-error-banner";
import { RadioGroup } from "@/components/ui/radio-group";
import { TextField } from "@/components/ui/text-field";
import { StepUpContext, useApiForm, type AskForStepUp } from "@/components/use-api-form";
import type { FactorsOutput } from "@/lib/contract/factors";
import { STEP_UP_MINUTES, type ProofMethod } from "@/lib/contract/values";
import type { ApiRequestError } from "@/lib/portal/api-client";

/** Provides the portal's step-up: every useApiForm below it asks here when the gateway wants a fresh proof. */
export function StepUpProvider({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(false);
  // Requests refused together wait for the same proof.
  const pending = useRef<{ promise: Promise<boolean>; resolve: (proven: boolean) => void } | null>(null);

  const ask = useCallback<AskForStepUp>(() => {
    if (!pending.current) {
      let resolve: (proven: boolean) => void = () => undefined;
      const promise = new Promise<boolean>((done) => (resolve = done));
      pending.current = { promise, resolve };
      setOpen(true);
    }
    return pending.current.promise;
  }, []);

  const finish = useCallback((proven: boolean) => {
    pending.current?.resolve(proven);
    pending.current = null;
    setOpen(false);
  }, []);

  return (
    <StepUpContext value={ask}>
      {children}
      <StepUpDialog open={open} onDone={finish} />
    </StepUpContext>
  );
}

const LABELS: Record<ProofMethod, string> = {
  passkey: "Passkey",
  totp: "Authenticator app",
  recovery: "Recovery code",
  password: "Password",
};

const WRONG: Record<string, string> = {
  invalid_credentials: "The password is wrong.",
  invalid_second_factor: "That is not right, or was used already: try again.",
};

/** What he can prove with, in the order offered: what he enrolled, then his password (none with single sign-on). */
function methodsOf(factors: FactorsOutput): ProofMethod[] {
  const second = factors.passkeys > 0 || factors.totp;
  return [
    ...(factors.passkeys > 0 ? (["passkey"] as const) : []),
    ...(factors.totp ? (["totp"] as const) : []),
    ...(second && factors.recovery_codes_left > 0 ? (["recovery"] as const) : []),
    ...(factors.password ? (["password"] as const) : []),
  ];
}

function StepUpDialog({ open, onDone }: { open: boolean; onDone: (proven: boolean) => void }) {
  const descriptionId = useId();
  return (
    <Modal open={open} onClose={() => onDone(false)} title="Confirm it is you" describedBy={descriptionId}>
      <p id={descriptionId}>
        This is a sensitive action, and your last confirmation is more than {STEP_UP_MINUTES} minutes old. Confirm it is
        you and it goes on; what you entered is kept.
      </p>
      <ProofForm onDone={onDone} />
    </Modal>
  );
}

function ProofForm({ onDone }: { onDone: (proven: boolean) => void }) {
  const formId = useId();
  const { data, error } = useSWR<{ data: FactorsOutput }, ApiRequestError>("/api/auth/factors", {
    revalidateOnMount: true,
    revalidateOnFocus: false,
  });
  const methods = data ? methodsOf(data.data) : [];
  const [chosen, setChosen] = useState<ProofMethod | null>(null);
  const method = chosen && methods.includes(chosen) ? chosen : (methods[0] ?? null);
  const [passkeyFailure, setPasskeyFailure] = useState<string | null>(null);
  const form = useApiForm({
    fieldNames: ["password", "code"],
    failureOf: (refused) => ({
      message: WRONG[refused.code] ?? refused.message,
      requestId: refused.requestId,
    }),
  });

  async function prove(body: Record<string, unknown>) {
    if ((await form.send("/api/auth/step-up", { method: "POST", body })) !== false) onDone(true);
  }

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setPasskeyFailure(null);
    if (!method) return;
    if (method === "passkey") {
      let response: unknown;
      try {
        // Loaded when asked for: the dialog is on every page, a passkey's browser code only when used.
        const { assertWithPasskey } = await import("@/lib/portal/passkey-browser");
        response = await assertWithPasskey("step_up");
      } catch {
        setPasskeyFailure(
          "The passkey did not answer (cancelled, or not on this device). Try again or pick another way.",
        );
        return;
      }
      await prove({ method: "passkey", response });
      return;
    }
    const value = String(new FormData(event.currentTarget).get(method === "password" ? "password" : "code") ?? "");
    const missing = method === "password" ? "Enter your password." : "Enter the code.";
    if (!form.check(value.trim() === "" ? { [method === "password" ? "password" : "code"]: missing } : {})) return;
    await prove(method === "password" ? { method, password: value } : { method, code: value });
  };

  const cancel = (
    <Button variant="secondary" onClick={() => onDone(false)}>
      Cancel
    </Button>
  );

  if (error) {
    return (
      <>
        <FormErrorBanner
          title="Could not ask how you can confirm"
          message={error.message}
          requestId={error.requestId}
        />
        <div>{cancel}</div>
      </>
    );
  }
  if (!data) return <p role="status">Loading how you can confirm…</p>;
  if (methods.length === 0) {
    return (
      <>
        <p>
          You sign in with single sign-on and have no passkey or authenticator app here: sign out and sign in again,
          then do this within {STEP_UP_MINUTES} minutes. (A passkey or an authenticator app, added on Account →
          Security, lets you confirm without signing out.)
        </p>
        <div>{cancel}</div>
      </>
    );
  }

  return (
    <form id={formId} noValidate onSubmit={(event) => void submit(event)} aria-label="Confirm it is you">
      <FormErrorBanner
        title="Not confirmed"
        message={passkeyFailure ?? form.failure?.message}
        requestId={passkeyFailure ? undefined : form.failure?.requestId}
      />
      {methods.length > 1 ? (
        <RadioGroup
          name="step-up-method"
          label="Confirm with"
          options={methods.map((value) => ({ value, label: LABELS[value] }))}
          value={method ?? undefined}
          onChange={(value) => {
            form.clear();
            setPasskeyFailure(null);
            setChosen(value as ProofMethod);
          }}
          inline
        />
      ) : null}
      {method === "passkey" ? <p>Your browser asks for your passkey when you press Confirm.</p> : null}
      {method === "totp" ? (
        <TextField
          key="totp"
          name="code"
          label="Authenticator code"
          hint="The 6 digits your authenticator app shows now."
          inputMode="numeric"
          autoComplete="one-time-code"
          autoFocus
          required
          error={form.fields.code}
        />
      ) : null}
      {method === "recovery" ? (
        <TextField
          key="recovery"
          name="code"
          label="Recovery code"
          hint="One of your recovery codes, such as abcde-12345. Each works once."
          autoComplete="off"
          spellCheck={false}
          autoFocus
          required
          error={form.fields.code}
        />
      ) : null}
      {method === "password" ? (
        <TextField
          key="password"
          name="password"
          type="password"
          label="Your password"
          autoComplete="current-password"
          autoFocus
          required
          error={form.fields.password}
        />
      ) : null}
      <div style={{ display: "flex", gap: "0.5rem", justifyContent: "flex-end" }}>
        {cancel}
        <Button type="submit" variant="primary" loading={form.busy} loadingText="Confirming…">
          Confirm
        </Button>
      </div>
    </form>
  );
}
