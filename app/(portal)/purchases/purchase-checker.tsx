"use client";
// The purchase-code form. The normaliser (lib/purchases/normalise.ts) runs on each submit for instant feedback:
// a refused code gets its reason as the field error without a request. Otherwise the code is sent as typed to
// POST /api/purchases/validate, which cleans it again (same module) and answers the checked code, the notes on
// what cleaning changed, and what the history knew of the code; a refusal there (400) shows the same way.
import { useState, type FormEvent } from "react";

import { Button } from "@/components/ui/button";
import { FormErrorBanner } from "@/components/ui/form-error-banner";
import { TextField } from "@/components/ui/text-field";
import type { PurchaseCheck } from "@/lib/contract/purchases";
import { apiRequest, ApiRequestError } from "@/lib/portal/api-client";
import { normalisePurchaseCode } from "@/lib/purchases/normalise";

import formStyles from "../forms.module.css";
import { PurchaseResult } from "./purchase-result";
import styles from "./purchases.module.css";

export interface PurchaseCheckerProps {
  /** Whether item names link to the portal's item pages. */
  linkItems: boolean;
  /** A distinct field id when two checkers could share a page. */
  id?: string;
}

export function PurchaseChecker({ linkItems, id = "field-purchase_code" }: PurchaseCheckerProps) {
  const [fieldError, setFieldError] = useState<string | undefined>();
  // What cleaning changed, and the code it gave: shown while checking, then as the server reports it.
  const [cleaning, setCleaning] = useState<{ code: string; notes: string[] } | null>(null);
  const [checked, setChecked] = useState<PurchaseCheck | null>(null);
  const [failure, setFailure] = useState<{ message: string; requestId?: string } | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const raw = String(new FormData(event.currentTarget).get("purchase_code") ?? "");
    const normalised = normalisePurchaseCode(raw);
    setChecked(null);
    setFailure(null);
    if (!normalised.ok) {
      setFieldError(normalised.reason);
      setCleaning(null);
      return;
    }
    setFieldError(undefined);
    setCleaning({ code: normalised.code, notes: normalised.notes });

    setBusy(true);
    try {
      const { data } = await apiRequest<{ data: PurchaseCheck }>("/api/purchases/validate", {
        method: "POST",
        body: { purchase_code: raw },
      });
      setCleaning({ code: data.checked_code, notes: data.notes });
      setChecked(data);
    } catch (error) {
      if (!(error instanceof ApiRequestError)) throw error;
      if (error.fields?.purchase_code) {
        setFieldError(error.fields.purchase_code);
        setCleaning(null);
      } else if (error.status === 429) {
        const wait = error.retryAfterSeconds ? `${error.retryAfterSeconds} seconds` : "a minute";
        setFailure({ message: `Too many checks in a short time. Try again in ${wait}.`, requestId: error.requestId });
      } else setFailure({ message: error.message, requestId: error.requestId });
    } finally {
      setBusy(false);
    }
  };

  // The field's error is not a live region: a refusal is announced here too.
  const status = busy
    ? "Checking the code…"
    : fieldError
      ? `The code was not checked. ${fieldError}`
      : checked
      ? checked.valid
        ? `The code is valid: ${checked.purchase.license_type} of ${checked.purchase.item.name}.`
        : "The code is not valid."
      : "";

  return (
    <div className={styles.checker}>
      <form noValidate className={formStyles.form} onSubmit={(event) => void submit(event)} aria-label="Check a purchase code">
        <div className={formStyles.inline}>
          <TextField
            id={id}
            name="purchase_code"
            label="Purchase code"
            hint="As the buyer sent it, e.g. 11111111-1111-4111-8111-111111111111"
            autoComplete="off"
            autoCapitalize="off"
            autoCorrect="off"
            spellCheck={false}
            required
            error={fieldError}
          />
          <Button type="submit" variant="primary" loading={busy} loadingText="Checking…">
            Check code
          </Button>
        </div>
      </form>
      {cleaning && cleaning.notes.length > 0 ? (
        <div className={styles.notice} role="status">
          <p>The code was cleaned before checking:</p>
          <ul className={styles.notes}>
            {cleaning.notes.map((note) => (
              <li key={note}>{note}</li>
            ))}
          </ul>
          <p>
            Code checked: <code className={styles.code}>{cleaning.code}</code>
          </p>
        </div>
      ) : null}
      <p role="status" className="visually-hidden">
        {status}
      </p>
      <FormErrorBanner title="The code could not be checked" message={failure?.message} requestId={failure?.requestId} />
      {checked ? <PurchaseResult check={checked} linkItems={linkItems} /> : null}
    </div>
  );
}
