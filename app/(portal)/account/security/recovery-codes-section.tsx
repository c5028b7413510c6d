"use client";
// Account → Security, recovery codes: how many are left, and a new set (the old ones stop working) shown once, with
// Copy and Download. The same display shows the first set, made with his first factor (./authenticator-section.tsx).
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";

import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { useApiAction } from "@/components/use-api-form";
import type { FactorSummary } from "@/lib/contract/factors";

import formStyles from "../../forms.module.css";
import styles from "./security.module.css";

/** New recovery codes, shown this once: copy them, download them as a text file, then Done. */
export function RecoveryCodesShown({ codes, onDone }: { codes: readonly string[]; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  const copyRef = useRef<HTMLButtonElement>(null);
  useEffect(() => copyRef.current?.focus(), []);
  const text = `Gatehouse recovery codes (each works once)\n\n${codes.join("\n")}\n`;
  const download = () => {
    const url = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
    const link = document.createElement("a");
    link.href = url;
    link.download = "gatehouse-recovery-codes.txt";
    link.click();
    URL.revokeObjectURL(url);
  };
  return (
    <Card title="Your recovery codes" headingLevel={3}>
      <p>
        Keep them somewhere safe, away from your phone: each signs you in once when you cannot use your second factor.
        Gatehouse keeps only their hashes and cannot show them again.
      </p>
      <ul className={styles.codes} aria-label="Recovery codes" data-testid="recovery-codes">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <div className={formStyles.buttons}>
        <Button
          ref={copyRef}
          size="sm"
          variant="secondary"
          onClick={() => void navigator.clipboard?.writeText(text).then(() => setCopied(true))}
        >
          {copied ? "Copied" : "Copy"}
        </Button>
        <Button size="sm" variant="secondary" onClick={download}>
          Download
        </Button>
        <Button size="sm" variant="primary" onClick={onDone}>
          I have saved them
        </Button>
      </div>
    </Card>
  );
}

export function RecoveryCodesSection({ summary }: { summary: FactorSummary }) {
  const router = useRouter();
  const action = useApiAction();
  const [confirming, setConfirming] = useState(false);
  const [codes, setCodes] = useState<string[] | null>(null);
  const hasFactor = summary.passkeys > 0 || summary.totp;

  const regenerate = async (): Promise<boolean> => {
    const answer = await action.send<{ data: { recovery_codes: string[] } }>("/api/auth/recovery-codes", {
      method: "POST",
    });
    if (answer === false) return false;
    setCodes(answer.data.recovery_codes);
    router.refresh();
    return true;
  };

  return (
    <Card title="Recovery codes" asSection>
      {codes ? (
        <RecoveryCodesShown codes={codes} onDone={() => setCodes(null)} />
      ) : hasFactor ? (
        <>
          <p data-testid="recovery-codes-left">
            {summary.recovery_codes_left === 1
              ? "1 recovery code left."
              : `${summary.recovery_codes_left} recovery codes left.`}{" "}
            Each signs you in once when you cannot use your passkey or authenticator app.
          </p>
          <div className={formStyles.buttons}>
            <Button variant="secondary" onClick={() => setConfirming(true)}>
              Make new recovery codes
            </Button>
          </div>
        </>
      ) : (
        <p>Recovery codes come with your first second factor: add a passkey or an authenticator app above.</p>
      )}
      <ConfirmDialog
        open={confirming}
        onClose={() => {
          setConfirming(false);
          action.clear();
        }}
        title="Make new recovery codes?"
        confirmLabel="Make new codes"
        busyLabel="Making…"
        action={action}
        onConfirm={regenerate}
      >
        Every recovery code you have now stops working; the new ones are shown once.
      </ConfirmDialog>
    </Card>
  );
}
