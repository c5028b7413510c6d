"use client";
// The bulk check form: codes pasted one per line, or read from a .csv or .txt file in the browser (nothing is
// uploaded but the codes). The live count says what the gateway will do with the list — duplicates are checked
// once, codes the normaliser refuses end as invalid with the reason — before anything is sent.
import { useRouter } from "next/navigation";
import { useDeferredValue, useId, useMemo, useState, type ChangeEvent, type FormEvent } from "react";

import { Button } from "@/components/ui/button";
import { FormErrorBanner } from "@/components/ui/form-error-banner";
import { TextField } from "@/components/ui/text-field";
import { useApiForm } from "@/components/use-api-form";
import type { BulkJobSummary } from "@/lib/contract/purchases";
import { BULK_MAX_CODES } from "@/lib/contract/values";
import type { PurchaseCodeFormat } from "@/lib/contract/values";
import { BULK_FILE_MAX_BYTES, describeBatch, summariseBatch } from "@/lib/portal/purchase-bulk";
import { parseCodeList } from "@/lib/purchases/code-list";

import fieldStyles from "@/components/ui/field.module.css";
import styles from "./bulk.module.css";

/** Refused codes listed by name under the field; the rest are counted. */
const REFUSED_SHOWN = 5;
const CODES_FIELD_ID = "field-codes";

const focusCodes = () => document.getElementById(CODES_FIELD_ID)?.focus();

/** `format`: PURCHASE_CODE_FORMAT, so that the browser counts and refuses codes as the server will. */
export function BulkForm({ format }: { format: PurchaseCodeFormat }) {
  const router = useRouter();
  const [text, setText] = useState("");
  const [fileNote, setFileNote] = useState<string | null>(null);
  const [fileError, setFileError] = useState<string | undefined>();
  const { busy, fields, failure, check, send } = useApiForm({
    fieldNames: ["codes"],
    failureOf: (error) => ({
      title: error.status === 429 ? "Over the bulk allowance" : "The check could not be started",
      message: error.message,
      requestId: error.requestId,
    }),
    leavesOnSuccess: true,
  });
  const fieldError = fields.codes;
  const fileId = useId();

  // Counting 500 codes on every keystroke is cheap, but a large paste should not make typing lag.
  const deferredText = useDeferredValue(text);
  const codes = useMemo(() => parseCodeList(deferredText).codes, [deferredText]);
  const summary = useMemo(() => summariseBatch(codes, format), [codes, format]);

  const readFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const input = event.currentTarget;
    const file = input.files?.[0];
    input.value = ""; // choosing the same file again reads it again
    if (!file) return;
    check({}); // a new list: the old one's errors no longer apply
    if (!/\.(csv|txt)$/i.test(file.name)) {
      setFileError(`${file.name} is not a .csv or .txt file. Export the codes as CSV or plain text first.`);
      return;
    }
    if (file.size > BULK_FILE_MAX_BYTES) {
      setFileError(
        `${file.name} is larger than ${BULK_FILE_MAX_BYTES / 1024 / 1024} MB; a list of ${BULK_MAX_CODES} codes is far smaller. Check that it is the right file.`,
      );
      return;
    }
    const parsed = parseCodeList(await file.text(), { fileName: file.name });
    if (parsed.codes.length === 0) {
      setFileError(`No purchase codes were found in ${file.name}.`);
      return;
    }
    setFileError(undefined);
    setText(parsed.codes.join("\n"));
    const column = parsed.column ? ` (column “${parsed.column}”)` : "";
    setFileNote(
      `Read ${parsed.codes.length} ${parsed.codes.length === 1 ? "code" : "codes"} from ${file.name}${column}. Review them below, then check them.`,
    );
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    // Count what is in the field now, not the deferred value.
    const list = parseCodeList(text).codes;
    const current = summariseBatch(list, format);
    if (!check({ codes: current.problem ?? undefined })) {
      focusCodes();
      return;
    }
    const answer = await send<{ data: BulkJobSummary }>("/api/purchases/bulk", {
      method: "POST",
      body: { codes: list },
      onRefused: (error) => {
        if (error.fields?.codes) focusCodes();
      },
    });
    if (answer) router.push(`/purchases/bulk/${answer.data.id}`);
  };

  const refused = summary.refused;
  return (
    <form noValidate className={styles.form} onSubmit={(event) => void submit(event)} aria-label="Bulk purchase check">
      <TextField
        multiline
        id={CODES_FIELD_ID}
        name="codes"
        label="Purchase codes"
        hint={`One code per line, up to ${BULK_MAX_CODES}. A code that appears twice is checked once.`}
        rows={10}
        spellCheck={false}
        autoComplete="off"
        autoCapitalize="off"
        autoCorrect="off"
        className={styles.codes}
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          setFileNote(null);
        }}
        error={fieldError}
      />
      <p className={summary.entered > BULK_MAX_CODES ? styles.countOver : styles.count} aria-live="polite">
        {summary.entered > BULK_MAX_CODES
          ? `${summary.entered} codes: at most ${BULK_MAX_CODES} per check.`
          : describeBatch(summary)}
      </p>
      {refused.length > 0 ? (
        <div className={styles.refused}>
          <p>
            {refused.length === 1
              ? "1 code cannot be a purchase code"
              : `${refused.length} codes cannot be purchase codes`}
            ; {refused.length === 1 ? "it is" : "they are"} listed as not purchase codes with the reason (and the
            corrected code, when it is one slip away), without asking the item service:
          </p>
          <ul>
            {refused.slice(0, REFUSED_SHOWN).map((code) => (
              <li key={code.position}>
                Code {code.position}: {code.reason}
              </li>
            ))}
            {refused.length > REFUSED_SHOWN ? <li>and {refused.length - REFUSED_SHOWN} more.</li> : null}
          </ul>
        </div>
      ) : null}

      <div className={fieldStyles.field}>
        <label htmlFor={fileId} className={fieldStyles.label}>
          Or read the codes from a file
        </label>
        <p id={`${fileId}-hint`} className={fieldStyles.hint}>
          A .csv (the column named like “purchase code”, or the first) or a .txt with one code per line. The file is
          read here, in your browser.
        </p>
        <input
          id={fileId}
          type="file"
          accept=".csv,.txt,text/csv,text/plain"
          className={styles.file}
          aria-describedby={[`${fileId}-hint`, fileError ? `${fileId}-error` : undefined].filter(Boolean).join(" ")}
          aria-invalid={fileError ? true : undefined}
          onChange={(event) => void readFile(event)}
        />
        {fileError ? (
          <p id={`${fileId}-error`} className={fieldStyles.error}>
            <span aria-hidden="true">⚠ </span>
            {fileError}
          </p>
        ) : null}
      </div>
      <p role="status" className={fileNote ? styles.fileNote : "visually-hidden"}>
        {fileNote}
      </p>

      <FormErrorBanner title={failure?.title} message={failure?.message} requestId={failure?.requestId} />
      <div>
        <Button type="submit" variant="primary" loading={busy} loadingText="Starting…">
          {summary.distinct > 0 && !summary.problem
            ? `Check ${summary.distinct} ${summary.distinct === 1 ? "code" : "codes"}`
            : "Check codes"}
        </Button>
      </div>
    </form>
  );
}
