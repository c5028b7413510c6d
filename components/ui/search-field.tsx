"use client";
// A search box that reports what was typed after a pause (debounced), for search kept in the URL. It follows
// `value` when the URL changes from outside (Back, a "Clear filters" link) but never overwrites what the
// person is still typing with an older value coming back from the URL.
import { useEffect, useRef, useState } from "react";

import { fieldIds, FieldHint } from "./field-parts";
import styles from "./field.module.css";

export interface SearchFieldProps {
  name?: string;
  label: string;
  /** The current search (from the URL). */
  value: string;
  /** Called with the trimmed text after `delayMs` of no typing, or at once on Enter. */
  onSearch: (value: string) => void;
  delayMs?: number;
  placeholder?: string;
  hint?: string;
  id?: string;
  maxLength?: number;
}

export function SearchField({
  name = "search",
  label,
  value,
  onSearch,
  delayMs = 300,
  placeholder,
  hint,
  id,
  maxLength = 255,
}: SearchFieldProps) {
  const [text, setText] = useState(value);
  const [seenValue, setSeenValue] = useState(value);
  const [lastSent, setLastSent] = useState(value);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const ids = fieldIds({ id, name, hint });

  // The URL changed under us, and not because of our own search: show the new value.
  if (value !== seenValue) {
    setSeenValue(value);
    if (value !== lastSent) {
      setText(value);
      setLastSent(value);
    }
  }

  useEffect(() => () => clearTimeout(timer.current), []);

  const send = (next: string) => {
    clearTimeout(timer.current);
    const trimmed = next.trim();
    setLastSent(trimmed);
    onSearch(trimmed);
  };

  return (
    <div className={`${styles.field} ${styles.search}`}>
      <label htmlFor={ids.controlId} className={styles.label}>
        {label}
      </label>
      <FieldHint id={ids.hintId}>{hint}</FieldHint>
      <input
        id={ids.controlId}
        name={name}
        type="search"
        className={styles.control}
        value={text}
        placeholder={placeholder}
        maxLength={maxLength}
        autoComplete="off"
        aria-describedby={ids.describedBy}
        onChange={(event) => {
          const next = event.target.value;
          setText(next);
          clearTimeout(timer.current);
          timer.current = setTimeout(() => send(next), delayMs);
        }}
        onKeyDown={(event) => {
          if (event.key === "Enter") {
            event.preventDefault();
            send(text);
          }
        }}
      />
    </div>
  );
}
