// A link to a URL that came from an upstream (untrusted): an <a> only for absolute http(s) URLs, opening in
// a new tab without giving that page a handle on ours (rel="noopener noreferrer"); anything else
// (javascript:, data:, relative junk) is shown as plain text and cannot be clicked. Server-renderable.
import type { ReactNode } from "react";

import { safeHttpUrl } from "../url";

import styles from "./safe-link.module.css";

export interface SafeLinkProps {
  href: string | null | undefined;
  /** The link text; the URL itself when omitted. */
  children?: ReactNode;
  className?: string;
  /** Shown when there is no URL at all. */
  missing?: ReactNode;
}

export function SafeLink({ href, children, className, missing = "—" }: SafeLinkProps) {
  const url = safeHttpUrl(href);
  const classes = [styles.link, className].filter(Boolean).join(" ");
  if (!url) {
    if (!href) return <span className={className}>{missing}</span>;
    return <span className={classes}>{children ?? href}</span>;
  }
  return (
    <a href={url} target="_blank" rel="noopener noreferrer" className={classes}>
      {children ?? href}
      <span className="visually-hidden"> (opens in a new tab)</span>
      <span aria-hidden="true" className={styles.external}>
        ↗
      </span>
    </a>
  );
}
