"use client";
// Account → Security, the authenticator app: set it up (a QR code to scan, or the secret to type), confirm it with
// the code the app shows, see the recovery codes made with a first factor (once), or remove it. A session held to
// enrolment goes on to the page it was asked for once the codes are saved.
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";

import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { FormErrorBanner } from "@/components/ui/form-error-banner";
import { TextField } from "@/components/ui/text-field";
import { useApiAction, useApiForm } from "@/components/use-api-form";
import type { FactorSummary } from "@/lib/contract/factors";

import formStyles from "../../forms.module.css";
import { RecoveryCodesShown } from "./recovery-codes-section";
import styles from "./security.module.css";

interface Enrolment {
  secret: string;
  uri: string;
  qr_svg: string;
}

/** The page asked for before enrolment (?next=), when it is a path of this site. */
function nextPath(): string | null {
  const next = new URLSearchParams(window.location.search).get("next");
  return next && next.startsWith("/") && !next.startsWith("//") && !next.startsWith("/\\") ? next : null;
}

export function AuthenticatorSection({ summary }: { summary: FactorSummary }) {
  const router = useRouter();
  const starting = useApiAction();
  const removal = useApiAction();
  const confirm = useApiForm({ fieldNames: ["code"] });
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [removing, setRemoving] = useState(false);

  const start = async () => {
    const answer = await starting.send<{ data: Enrolment }>("/api/auth/totp", { method: "POST" });
    if (answer) setEnrolment(answer.data);
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const code = String(new FormData(event.currentTarget).get("code") ?? "").trim();
    if (!confirm.check({ code: code === "" ? "Type the 6 digits your app shows." : undefined })) return;
    const answer = await confirm.send<{ data: { recovery_codes: string[] | null } }>("/api/auth/totp/confirm", {
      method: "POST",
      body: { code },
    });
    if (!answer) return;
    setEnrolment(null);
    if (answer.data.recovery_codes) setCodes(answer.data.recovery_codes);
    else finish();
  };

  const finish = () => {
    setCodes(null);
    const next = nextPath();
    if (next) router.push(next);
    else router.refresh();
  };

  const remove = async (): Promise<boolean> => {
    const answer = await removal.send("/api/auth/totp", { method: "DELETE" });
    if (answer === false) return false;
    router.refresh();
    return true;
  };

  return (
    <Card title="Authenticator app" asSection>
      {codes ? (
        <>
          <p role="status">Your authenticator app is set up: Gatehouse asks for its code at every sign-in.</p>
          <RecoveryCodesShown codes={codes} onDone={finish} />
        </>
      ) : summary.totp ? (
        <>
          <p data-testid="totp-enrolled">
            Set up: Gatehouse asks for a code from your authenticator app at every sign-in.
          </p>
          <div className={formStyles.buttons}>
            <Button variant="danger" onClick={() => setRemoving(true)}>
              Remove authenticator app
            </Button>
          </div>
        </>
      ) : enrolment ? (
        <form
          noValidate
          className={formStyles.form}
          onSubmit={(event) => void submit(event)}
          aria-label="Confirm the authenticator app"
        >
          <FormErrorBanner
            title="The app was not confirmed"
            message={confirm.failure?.message}
            requestId={confirm.failure?.requestId}
          />
          <p>Scan this QR code with your authenticator app (1Password, Google Authenticator, Authy…):</p>
          {/* eslint-disable-next-line @next/next/no-img-element -- an SVG made for this enrolment, as a data URI */}
          <img
            className={styles.qr}
            src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(enrolment.qr_svg)}`}
            alt="QR code of your authenticator secret"
            width={192}
            height={192}
          />
          <p>
            Or type this secret into the app:{" "}
            <code className={styles.secret} data-testid="totp-secret">
              {enrolment.secret}
            </code>
          </p>
          <TextField
            name="code"
            label="Code from the app"
            hint="The 6 digits it shows now"
            inputMode="numeric"
            autoComplete="one-time-code"
            error={confirm.fields.code}
            required
          />
          <div className={formStyles.buttons}>
            <Button type="submit" variant="primary" loading={confirm.busy} loadingText="Checking…">
              Confirm
            </Button>
            <Button variant="secondary" onClick={() => setEnrolment(null)}>
              Cancel
            </Button>
          </div>
        </form>
      ) : (
        <>
          <FormErrorBanner
            title="The app could not be set up"
            message={starting.failure?.message}
            requestId={starting.failure?.requestId}
          />
          <p>Codes from an app on your phone, which change every 30 seconds.</p>
          <div className={formStyles.buttons}>
            <Button variant="primary" loading={starting.busy} loadingText="Starting…" onClick={() => void start()}>
              Set up authenticator app
            </Button>
          </div>
        </>
      )}
      <ConfirmDialog
        open={removing}
        onClose={() => {
          setRemoving(false);
          removal.clear();
        }}
        title="Remove your authenticator app?"
        confirmLabel="Remove app"
        busyLabel="Removing…"
        variant="danger"
        action={removal}
        onConfirm={remove}
      >
        Its codes stop working at once. Your recovery codes stay.
      </ConfirmDialog>
    </Card>
  );
}
