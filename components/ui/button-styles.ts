// The class names shared by <Button> and <ButtonLink>, so a link can look like a button without a second copy.
import styles from "./button.module.css";

export type ButtonVariant = "primary" | "secondary" | "danger" | "ghost";
export type ButtonSize = "sm" | "md" | "lg";

export interface ButtonLook {
  variant?: ButtonVariant;
  size?: ButtonSize;
  fullWidth?: boolean;
  /** The button holds only an icon; give it an aria-label. */
  iconOnly?: boolean;
}

export function buttonClassName({ variant = "primary", size = "md", fullWidth, iconOnly }: ButtonLook, extra?: string) {
  return [
    styles.button,
    styles[variant],
    size !== "md" ? styles[size] : undefined,
    fullWidth ? styles.fullWidth : undefined,
    iconOnly ? styles.iconOnly : undefined,
    extra,
  ]
    .filter(Boolean)
    .join(" ");
}
