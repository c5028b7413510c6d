"use client";
// The purchase-code form: trims the code, and says plainly when it held invisible or look-alike characters
// (lib/purchases/normalise.ts) before checking the cleaned code with POST /api/purchases/validate.
import { useState, type FormEvent } from "react";

import { Button } from "@/components/ui/button";
import { FormErrorBanner } from "@/components/ui/form-error-banner";
import { TextField } from "@/components/ui/text-field";
import type { PurchaseValidation } from "@/lib/api/schemas";
import { apiRequest, ApiRequestError } from "@/lib/portal/api-client";
import { describeFindings, normalisePurchaseCode } from "@/lib/purchases/normalise";

import formStyles from "../forms.module.css";
import { PurchaseResult } from "./purchase-result";
import styles from "./purchases.module.css";

interface Checked {
  code: string;
  result: PurchaseValidation;
}

export interface PurchaseCheckerProps {
  /** Whether item names link to the portal's item pages. */
  linkItems: boolean;
  /** A distinct field id when two checkers could share a page. */
  id?: string;
}

export function PurchaseChecker({ linkItems, id = "field-purchase_code" }: PurchaseCheckerProps) {
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [notices, setNotices] = useState<string[]>([]);
  const [checked, setChecked] = useState<Checked | null>(null);
  const [failure, setFailure] = useState<{ message: string; requestId?: string } | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const raw = String(new FormData(event.currentTarget).get("purchase_code") ?? "");
    const { code, findings, usable } = normalisePurchaseCode(raw);
    const sentences = describeFindings(findings);
    setChecked(null);
    setFailure(null);
    if (code === "") {
      setFieldError("Enter the purchase code the buyer gave you.");
      setNotices([]);
      return;
    }
    if (!usable) {
      setFieldError(sentences.join(" "));
      setNotices([]);
      return;
    }
    if (code.length > 100) {
      setFieldError("This is too long for a purchase code (at most 100 characters). Check what was pasted.");
      setNotices([]);
      return;
    }
    setFieldError(undefined);
    setNotices(sentences.length > 0 ? [...sentences, `The code was checked as ${code}.`] : []);

    setBusy(true);
    try {
      const { data } = await apiRequest<{ data: PurchaseValidation }>("/api/purchases/validate", {
        method: "POST",
        body: { purchase_code: code },
      });
      setChecked({ code, result: data });
    } catch (error) {
      if (!(error instanceof ApiRequestError)) throw error;
      if (error.fields?.purchase_code) setFieldError(error.fields.purchase_code);
      else if (error.status === 429) {
        const wait = error.retryAfterSeconds ? `${error.retryAfterSeconds} seconds` : "a minute";
        setFailure({ message: `Too many checks in a short time. Try again in ${wait}.`, requestId: error.requestId });
      } else setFailure({ message: error.message, requestId: error.requestId });
    } finally {
      setBusy(false);
    }
  };

  const status = busy
    ? "Checking the code…"
    : checked
      ? checked.result.valid
        ? `The code is valid: ${checked.result.purchase.license_type} of ${checked.result.purchase.item.name}.`
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
      {notices.length > 0 ? (
        <div className={styles.notice} role="status">
          {notices.map((text) => (
            <p key={text}>{text}</p>
          ))}
        </div>
      ) : null}
      <p role="status" className="visually-hidden">
        {status}
      </p>
      <FormErrorBanner title="The code could not be checked" message={failure?.message} requestId={failure?.requestId} />
      {checked ? <PurchaseResult result={checked.result} code={checked.code} linkItems={linkItems} /> : null}
    </div>
  );
}
