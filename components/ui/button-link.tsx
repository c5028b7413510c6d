// A link that looks like a button (for navigation: "New report", "Back to reports"). Server-renderable.
import Link from "next/link";
import type { ComponentProps } from "react";

import { buttonClassName, type ButtonLook } from "./button-styles";

export type ButtonLinkProps = ComponentProps<typeof Link> & ButtonLook;

export function ButtonLink({ variant = "secondary", size, fullWidth, iconOnly, className, ...rest }: ButtonLinkProps) {
  return <Link {...rest} className={buttonClassName({ variant, size, fullWidth, iconOnly }, className)} />;
}
