"use client";
// The purchase-code form. The normaliser (lib/purchases/normalise.ts) runs on each submit for instant feedback,
// by the same PURCHASE_CODE_FORMAT as the server (passed in by the page): a refused code gets its reason as the
// field error without a request, and a code refused only for look-alikes (a Cyrillic 'а', an en dash) is shown
// corrected, the changed characters marked, with one button that checks it. Otherwise the code is sent as typed to
// POST /api/purchases/validate, which cleans it again (same module) and answers the checked code, the notes on
// what cleaning changed, and what the history knew of the code; a refusal there (400) shows the same way.
// A code one plausible slip from the UUID shape (lib/purchases/slips.ts: an O for a 0, spaces for hyphens, a
// character missing or extra) gets the slip named — when it is refused, and when the item service answers it is
// not valid — and the corrected code, when it is certain, is checked with one button.
//
// Made for checking one code after another: the field's text is selected when it gets the focus and after each
// verdict, so the next paste replaces the last code (a paste into a field still holding the checked code replaces
// it too: two codes run together would be checked, and recorded, as one invalid code). A pasted or submitted text
// that holds one code among other words ("Purchase code: …", an e-mail) is reduced to it, and the page says so;
// one that holds several asks which. Escape clears the field; on the checker's own page `/` focuses it from
// anywhere (the shell's shortcut finds it by data-search-shortcut), and the field has the focus when the page opens.
import { useRouter } from "next/navigation";
import { useRef, useState, type ClipboardEvent, type FormEvent, type KeyboardEvent } from "react";

import { Button } from "@/components/ui/button";
import { FormErrorBanner } from "@/components/ui/form-error-banner";
import { TextField } from "@/components/ui/text-field";
import { useApiForm } from "@/components/use-api-form";
import type { PurchaseCheck } from "@/lib/contract/purchases";
import type { HelpdeskSystem, PurchaseCodeFormat } from "@/lib/contract/values";
import { codeInText } from "@/lib/purchases/find-codes";
import { correctPurchaseCode, normalisePurchaseCode, type CorrectedPurchaseCode } from "@/lib/purchases/normalise";
import { slipFor, type PurchaseCodeSlip } from "@/lib/purchases/slips";

import formStyles from "../forms.module.css";
import { LicenceActivations } from "./licence-activations";
import { PurchaseResult } from "./purchase-result";
import styles from "./purchases.module.css";

export interface PurchaseCheckerProps {
  /** Whether item names link to the portal's item pages. */
  linkItems: boolean;
  /** PURCHASE_CODE_FORMAT: the browser reads a code as the server will. */
  format: PurchaseCodeFormat;
  /** A distinct field id when two checkers could share a page. */
  id?: string;
  /** The page's main task: the field has the focus when the page opens, and `/` focuses it from anywhere. */
  primary?: boolean;
  /** The helpdesk ticket the checks are made for (the checker opened from a helpdesk's card): kept with each. */
  ticket?: HelpdeskTicketRef | null;
}

/** A helpdesk ticket as the validate body takes it. */
export interface HelpdeskTicketRef {
  system: HelpdeskSystem;
  id: string;
  url?: string;
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

/** A purchase that is, or was, valid may have licence activations; a code never valid has none. */
function mayHoldActivations(check: PurchaseCheck): boolean {
  if (check.stale) return check.last_verdict.outcome !== "invalid";
  return check.valid || check.lifecycle.revoked;
}

/** The item names the verdict knows (the purchase's, or what a revoked code had bought), by id. */
function itemNamesOf(check: PurchaseCheck): Record<number, string> {
  if (check.stale) return check.last_verdict.item ? { [check.last_verdict.item.id]: check.last_verdict.item.name } : {};
  if (check.valid) return { [check.purchase.item.id]: check.purchase.item.name };
  const previous = check.lifecycle.previously_valid;
  return previous ? { [previous.item.id]: previous.item.name } : {};
}

export function PurchaseChecker({
  linkItems,
  format,
  id = "field-purchase_code",
  primary = false,
  ticket = null,
}: PurchaseCheckerProps) {
  // What cleaning changed, and the code it gave: shown while checking, then as the server reports it.
  const [cleaning, setCleaning] = useState<{ code: string; notes: string[] } | null>(null);
  const [corrected, setCorrected] = useState<CorrectedPurchaseCode | null>(null);
  const [slip, setSlip] = useState<PurchaseCodeSlip | null>(null);
  const [checked, setChecked] = useState<PurchaseCheck | null>(null);
  /** The code as sent for the verdict shown: its licence activations are searched with it. */
  const [checkedCode, setCheckedCode] = useState<string | null>(null);
  const router = useRouter();
  // A code taken out of a longer text, or the codes such a text holds, to choose from.
  const [found, setFound] = useState<string | null>(null);
  const [choices, setChoices] = useState<string[] | null>(null);
  /** The field's text when it was last checked: a paste into it replaces it rather than adding to it. */
  const lastChecked = useRef<string | null>(null);
  /** The field's text was selected for the next paste: the click that follows keeps it selected. */
  const selectedForNext = useRef(false);
  const field = (): HTMLInputElement | null => {
    const element = document.getElementById(id);
    return element instanceof HTMLInputElement ? element : null;
  };
  const selectForNext = () => {
    const input = field();
    if (!input) return;
    input.focus();
    input.select();
    selectedForNext.current = input.value !== "";
  };

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

  const check = async (typed: string) => {
    const inText = codeInText(typed);
    setChoices(inText && "choose" in inText ? inText.choose : null);
    // The note on a code taken from a pasted text stays while that code is what is checked.
    setFound(inText && "found" in inText ? inText.found : typed === found ? found : null);
    setSlip(null);
    if (inText && "choose" in inText) {
      setChecked(null);
      setCorrected(null);
      setCleaning(null);
      return;
    }
    const raw = inText ? inText.found : typed;
    const input = field();
    if (input && inText) input.value = raw;
    lastChecked.current = raw;
    const normalised = normalisePurchaseCode(raw, format);
    setChecked(null);
    if (!checkField({ purchase_code: normalised.ok ? undefined : normalised.reason }) || !normalised.ok) {
      const lookalikes = correctPurchaseCode(raw, format);
      setCorrected(lookalikes);
      setSlip(lookalikes ? null : slipFor(raw, format));
      setCleaning(null);
      selectForNext();
      return;
    }
    setCorrected(null);
    setCleaning({ code: normalised.code, notes: normalised.notes });

    const answer = await send<{ data: PurchaseCheck }>("/api/purchases/validate", {
      method: "POST",
      body: ticket ? { purchase_code: raw, ticket } : { purchase_code: raw },
    });
    selectForNext();
    // What the page shows of the checks includes this one now, a failed one too: checks per item under the verdict
    // on /purchases, "Your checks today" on the dashboard. The page's server parts render again; the upstream's
    // lists they show come from the cache (docs/purchase-codes.md measures a dashboard render).
    router.refresh();
    if (!answer) return;
    setCleaning({ code: answer.data.checked_code, notes: answer.data.notes });
    setChecked(answer.data);
    setCheckedCode(raw);
    setSlip(answer.data.stale ? null : answer.data.suggestion);
  };

  /** A paste replaces a code already checked, and is reduced to the code when it holds one among other words. */
  const paste = (event: ClipboardEvent<HTMLInputElement>) => {
    const text = event.clipboardData.getData("text");
    const input = event.currentTarget;
    const inText = codeInText(text);
    const replacesChecked = input.value !== "" && input.value === lastChecked.current;
    if (!inText && !replacesChecked) return; // the browser's own paste
    event.preventDefault();
    setFound(inText && "found" in inText ? inText.found : null);
    setChoices(inText && "choose" in inText ? inText.choose : null);
    if (inText && "choose" in inText) return; // the field keeps what it had until one is chosen
    const pasted = inText ? inText.found : text;
    if (replacesChecked) input.value = pasted;
    else input.setRangeText(pasted, input.selectionStart ?? 0, input.selectionEnd ?? 0, "end");
    lastChecked.current = null;
  };

  const keyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== "Escape" || event.currentTarget.value === "") return;
    event.preventDefault();
    event.currentTarget.value = "";
    lastChecked.current = null;
  };

  /** Checks one of the codes a pasted text held. */
  const choose = (code: string) => {
    const input = field();
    if (input) input.value = code;
    setChoices(null);
    void check(code);
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void check(String(new FormData(event.currentTarget).get("purchase_code") ?? ""));
  };

  /** Checks a corrected code, and puts it in the field so that what is shown is what was checked. */
  const checkCorrected = (code: string) => {
    const input = field();
    if (input) input.value = code;
    void check(code);
  };

  // The field's error is not a live region: a refusal is announced here too.
  const status = busy
    ? "Checking the code…"
    : fieldError
      ? `The code was not checked. ${fieldError}${corrected || slip?.code ? " A corrected code can be checked with the button below the field." : ""}`
      : checked
        ? checked.stale
          ? `The item service did not answer. ${checked.message}`
          : checked.valid
            ? `The code is valid: ${checked.purchase.license_type} of ${checked.purchase.item.name}.`
            : checked.lifecycle.revoked
              ? `The code is revoked. ${checked.message}`
              : `The code is not valid.${checked.suggestion ? ` Likely a slip: ${checked.suggestion.slip}.` : ""}`
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
            autoFocus={primary}
            data-search-shortcut={primary ? "" : undefined}
            onFocus={(event) => {
              event.currentTarget.select();
              selectedForNext.current = event.currentTarget.value !== "";
            }}
            onMouseDown={(event) => {
              // The first click into text selected for the next paste keeps it selected (then the caret is free).
              if (!selectedForNext.current || document.activeElement !== event.currentTarget) return;
              selectedForNext.current = false;
              event.preventDefault();
            }}
            onMouseUp={(event) => {
              // A click that gave the focus: the browser would put the caret where it landed, undoing the selection.
              if (selectedForNext.current) event.preventDefault();
              selectedForNext.current = false;
            }}
            onPaste={paste}
            onKeyDown={keyDown}
          />
          <Button type="submit" variant="primary" loading={busy} loadingText="Checking…">
            Check code
          </Button>
        </div>
      </form>
      {found && !fieldError ? (
        <div className={styles.notice} role="status" data-testid="found-code">
          <p>
            The purchase code was taken from the pasted text: <code className={styles.code}>{found}</code>. The rest was
            left out.
          </p>
        </div>
      ) : null}
      {choices ? (
        <div className={styles.notice} role="group" aria-labelledby={`${id}-choices`}>
          <p id={`${id}-choices`}>The text holds {choices.length} purchase codes. Which one should be checked?</p>
          <ul className={styles.choices}>
            {choices.map((code) => (
              <li key={code}>
                <Button type="button" variant="secondary" onClick={() => choose(code)} disabled={busy}>
                  Check <code className={styles.code}>{code}</code>
                </Button>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {corrected ? (
        <div className={styles.notice} data-testid="correction">
          <p>
            Corrected, the code would be <MarkedCode corrected={corrected} />
            {corrected.changed.length > 0 ? " (the corrected characters are marked)" : ""}.
          </p>
          <Button type="button" variant="secondary" onClick={() => checkCorrected(corrected.code)} disabled={busy}>
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
      {checked && checkedCode && mayHoldActivations(checked) ? (
        <LicenceActivations key={checkedCode} code={checkedCode} itemNames={itemNamesOf(checked)} />
      ) : null}
      {slip && (fieldError || checked) ? (
        <div className={styles.notice} data-testid="slip">
          <p>
            Likely a slip: {slip.slip}.{" "}
            {slip.code ? (
              <>
                Corrected, the code would be <code className={styles.code}>{slip.code}</code>.
              </>
            ) : (
              "Ask the buyer for the code again."
            )}
          </p>
          {slip.code ? (
            <Button type="button" variant="secondary" onClick={() => checkCorrected(slip.code!)} disabled={busy}>
              Check the corrected code
            </Button>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
