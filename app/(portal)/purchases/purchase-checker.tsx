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
import { useApiForm } from "@/components/use-api-form";
import type { PurchaseCheck } from "@/lib/contract/purchases";
import type { PurchaseCodeFormat } from "@/lib/contract/values";
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
  // What cleaning changed, and the code it gave: shown while checking, then as the server reports it.
  const [cleaning, setCleaning] = useState<{ code: string; notes: string[] } | null>(null);
  const [corrected, setCorrected] = useState<CorrectedPurchaseCode | null>(null);
  const [checked, setChecked] = useState<PurchaseCheck | null>(null);
  const {
    busy,
    fields,
    failure,
    check: checkField,
    send,
  } = useApiForm({
    fieldNames: ["purchase_code"],
    failureOf: (error) =>
      error.status === 429
        ? {
            message: `Too many checks in a short time. Try again in ${error.retryAfterSeconds ? `${error.retryAfterSeconds} seconds` : "a minute"}.`,
            requestId: error.requestId,
          }
        : null,
  });
  const fieldError = fields.purchase_code;
  // A code refused (here or by the server) was not checked: what cleaning gave is not shown then.
  const shownCleaning = fieldError ? null : cleaning;

  const check = async (raw: string) => {
    const normalised = normalisePurchaseCode(raw, format);
    setChecked(null);
    if (!checkField({ purchase_code: normalised.ok ? undefined : normalised.reason }) || !normalised.ok) {
      setCorrected(correctPurchaseCode(raw, format));
      setCleaning(null);
      return;
    }
    setCorrected(null);
    setCleaning({ code: normalised.code, notes: normalised.notes });

    const answer = await send<{ data: PurchaseCheck }>("/api/purchases/validate", {
      method: "POST",
      body: { purchase_code: raw },
    });
    if (!answer) return;
    setCleaning({ code: answer.data.checked_code, notes: answer.data.notes });
    setChecked(answer.data);
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
      {shownCleaning && shownCleaning.notes.length > 0 ? (
        <div className={styles.notice} role="status">
          <p>The code was cleaned before checking:</p>
          <ul className={styles.notes}>
            {shownCleaning.notes.map((note) => (
              <li key={note}>{note}</li>
            ))}
          </ul>
          <p>
            Code checked: <code className={styles.code}>{shownCleaning.code}</code>
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
