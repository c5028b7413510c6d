// A labelled text input (or textarea with `multiline`), its hint and its error, wired with aria-describedby
// and aria-invalid. Uncontrolled (defaultValue) or controlled (value + onChange): pass what the form needs.
import type { InputHTMLAttributes, TextareaHTMLAttributes } from "react";

import { FieldFrame, fieldIds, type FieldCommonProps } from "./field-parts";
import styles from "./field.module.css";

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, "name" | "id" | "required">;

export interface TextFieldProps extends FieldCommonProps, InputProps {
  type?: "text" | "email" | "password" | "url" | "search" | "number" | "tel" | "date" | "time";
  multiline?: false;
}

export interface TextAreaFieldProps
  extends FieldCommonProps, Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, "name" | "id" | "required"> {
  multiline: true;
}

export function TextField(props: TextFieldProps | TextAreaFieldProps) {
  const { name, label, hint, error, id, required, className, ...rest } = props;
  const ids = fieldIds({ id, name, hint, error });
  const common = {
    id: ids.controlId,
    name,
    required,
    "aria-invalid": error ? true : undefined,
    "aria-describedby": ids.describedBy,
    className: [styles.control, className].filter(Boolean).join(" "),
  };
  return (
    <FieldFrame ids={ids} label={label} required={required} hint={hint} error={error}>
      {rest.multiline ? (
        <textarea {...withoutMultiline(rest)} {...common} />
      ) : (
        <input type="text" {...withoutMultiline(rest)} {...common} />
      )}
    </FieldFrame>
  );
}

function withoutMultiline<T extends { multiline?: boolean }>({ multiline: _multiline, ...rest }: T) {
  return rest;
}
