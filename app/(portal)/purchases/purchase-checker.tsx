"use client";
// The purchase-code form. The normaliser (lib/purchases/normalise.ts) runs on each submit for instant feedback,
// by the same PURCHASE_CODE_FORMAT as the server (passed in by the page): a refused code gets its reason as the
// field error without a request, and a code refused only for look-alikes (a Cyrillic 'а', an en dash) is shown
// corrected, the changed characters marked, with one button that checks it. Otherwise the code is sent as typed to
// POST /api/purchases/validate, which cleans it again (same module) and answers the checked code, the notes on
// what cleaning changed, and what the history knew of the code; a refusal there (400) shows the same way.
import { useState, type FormEvent } from "react";

import { Button } from "@/components/ui/button";
import { FormErrorBanner } from "@/components/ui/form-error-banner";
import { TextField } from "@/components/ui/text-field";
import type { PurchaseCheck } from "@/lib/contract/purchases";
import type { PurchaseCodeFormat } from "@/lib/contract/values";
import { apiRequest, ApiRequestError } from "@/lib/portal/api-client";
import { correctPurchaseCode, normalisePurchaseCode, type CorrectedPurchaseCode } from "@/lib/purchases/normalise";

import formStyles from "../forms.module.css";
import { PurchaseResult } from "./purchase-result";
import styles from "./purchases.module.css";

export interface PurchaseCheckerProps {
  /** Whether item names link to the portal's item pages. */
  linkItems: boolean;
  /** PURCHASE_CODE_FORMAT: the browser reads a code as the server will. */
  format: PurchaseCodeFormat;
  /** A distinct field id when two checkers could share a page. */
  id?: string;
}

/** The corrected code, each replaced character marked (and named for a screen reader). */
function MarkedCode({ corrected }: { corrected: CorrectedPurchaseCode }) {
  const changed = new Set(corrected.changed);
  return (
    <code className={styles.code} data-testid="corrected-code">
      {Array.from(corrected.code).map((char, index) =>
        changed.has(index) ? (
          <mark key={index} className={styles.changed} title={`Character ${index + 1} was corrected`}>
            {char}
          </mark>
        ) : (
          char
        ),
      )}
    </code>
  );
}

export function PurchaseChecker({ linkItems, format, id = "field-purchase_code" }: PurchaseCheckerProps) {
  const [fieldError, setFieldError] = useState<string | undefined>();
  // What cleaning changed, and the code it gave: shown while checking, then as the server reports it.
  const [cleaning, setCleaning] = useState<{ code: string; notes: string[] } | null>(null);
  const [corrected, setCorrected] = useState<CorrectedPurchaseCode | null>(null);
  const [checked, setChecked] = useState<PurchaseCheck | null>(null);
  const [failure, setFailure] = useState<{ message: string; requestId?: string } | null>(null);
  const [busy, setBusy] = useState(false);

  const check = async (raw: string) => {
    const normalised = normalisePurchaseCode(raw, format);
    setChecked(null);
    setFailure(null);
    if (!normalised.ok) {
      setFieldError(normalised.reason);
      setCorrected(correctPurchaseCode(raw, format));
      setCleaning(null);
      return;
    }
    setFieldError(undefined);
    setCorrected(null);
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

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void check(String(new FormData(event.currentTarget).get("purchase_code") ?? ""));
  };

  /** Checks the corrected code, and puts it in the field so that what is shown is what was checked. */
  const checkCorrected = () => {
    if (!corrected) return;
    const field = document.getElementById(id);
    if (field instanceof HTMLInputElement) field.value = corrected.code;
    void check(corrected.code);
  };

  // The field's error is not a live region: a refusal is announced here too.
  const status = busy
    ? "Checking the code…"
    : fieldError
      ? `The code was not checked. ${fieldError}${corrected ? " A corrected code can be checked with the button below the field." : ""}`
      : checked
        ? checked.valid
          ? `The code is valid: ${checked.purchase.license_type} of ${checked.purchase.item.name}.`
          : "The code is not valid."
        : "";

  return (
    <div className={styles.checker}>
      <form noValidate className={formStyles.form} onSubmit={submit} aria-label="Check a purchase code">
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
      {corrected ? (
        <div className={styles.notice} data-testid="correction">
          <p>
            Corrected, the code would be <MarkedCode corrected={corrected} />
            {corrected.changed.length > 0 ? " (the corrected characters are marked)" : ""}.
          </p>
          <Button type="button" variant="secondary" onClick={checkCorrected} disabled={busy}>
            Check the corrected code
          </Button>
        </div>
      ) : null}
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
      <FormErrorBanner
        title="The code could not be checked"
        message={failure?.message}
        requestId={failure?.requestId}
      />
      {checked ? <PurchaseResult check={checked} linkItems={linkItems} /> : null}
    </div>
  );
}
