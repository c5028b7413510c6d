"use client";
// The list of what is wrong with a submitted form, at its top. It takes focus when it appears (so a screen
// reader reads it and the keyboard starts there) and each entry moves focus to its field.
import { useEffect, useId, useRef, type MouseEvent } from "react";

import { fieldId } from "./field-parts";
import styles from "./form-feedback.module.css";

export interface ErrorSummaryProps {
  /** Field name → message, e.g. the gateway's `error.fields`. Empty or undefined: nothing is rendered. */
  errors: Readonly<Record<string, string>> | undefined;
  /** Field name → the label people see, so the list reads "URL: must start with https://". */
  labels?: Readonly<Record<string, string>>;
  /** Field name → the control's id, for fields given an explicit id; default fieldId(name). */
  ids?: Readonly<Record<string, string>>;
  title?: string;
}

export function ErrorSummary({ errors, labels, ids, title = "There is a problem" }: ErrorSummaryProps) {
  const ref = useRef<HTMLElement>(null);
  const titleId = useId();
  const entries = Object.entries(errors ?? {});
  // A new set of errors (another submit) takes focus again; the same set on a re-render does not.
  const signature = JSON.stringify(entries);

  useEffect(() => {
    if (signature !== "[]") ref.current?.focus();
  }, [signature]);

  if (entries.length === 0) return null;

  const focusField = (event: MouseEvent<HTMLAnchorElement>, name: string) => {
    const target = document.getElementById(ids?.[name] ?? fieldId(name));
    if (!target) return; // let the browser follow the fragment
    event.preventDefault();
    target.focus();
    target.scrollIntoView({ block: "center" });
  };

  return (
    <section ref={ref} tabIndex={-1} className={styles.summary} aria-labelledby={titleId}>
      <h2 id={titleId} className={styles.summaryTitle}>
        {title}
      </h2>
      <ul className={styles.summaryList}>
        {entries.map(([name, message]) => (
          <li key={name}>
            <a href={`#${ids?.[name] ?? fieldId(name)}`} onClick={(event) => focusField(event, name)}>
              {labels?.[name] ? `${labels[name]}: ` : null}
              {message}
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}
