"use client";
// A button in one of four variants. While `loading`, it stays focusable (aria-disabled, not disabled, so the
// keyboard user is not thrown out of it), says aria-busy, shows a spinner and ignores clicks and submits.
import type { ButtonHTMLAttributes, MouseEvent, ReactNode, Ref } from "react";

import { buttonClassName, type ButtonLook } from "./button-styles";
import { Spinner } from "./spinner";

export interface ButtonProps extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, "disabled">, ButtonLook {
  /** An action is running: shows a spinner, sets aria-busy and ignores presses. */
  loading?: boolean;
  /** Text that replaces the label while loading, e.g. "Deleting…". */
  loadingText?: ReactNode;
  disabled?: boolean;
  ref?: Ref<HTMLButtonElement>;
  children: ReactNode;
}

export function Button({
  variant,
  size,
  fullWidth,
  iconOnly,
  loading = false,
  loadingText,
  disabled = false,
  type = "button",
  className,
  onClick,
  children,
  ...rest
}: ButtonProps) {
  const inert = loading || disabled;
  const handleClick = (event: MouseEvent<HTMLButtonElement>) => {
    // preventDefault also stops a submit button from submitting its form again.
    if (inert) {
      event.preventDefault();
      return;
    }
    onClick?.(event);
  };
  return (
    <button
      {...rest}
      type={type}
      className={buttonClassName({ variant, size, fullWidth, iconOnly }, className)}
      aria-disabled={inert || undefined}
      aria-busy={loading || undefined}
      onClick={handleClick}
    >
      {loading ? <Spinner size="sm" label={null} /> : null}
      {loading && loadingText !== undefined ? loadingText : children}
    </button>
  );
}
