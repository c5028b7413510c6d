// The frame of pages shown outside the portal shell (sign-in, "page not found", a failure before the shell
// could render): the product name and one centred panel, inside a <main> landmark. Server-renderable.
import Link from "next/link";
import type { ReactNode } from "react";

import styles from "./standalone-page.module.css";

export interface StandalonePageProps {
  children: ReactNode;
  /** Under the panel, e.g. a hint about demo accounts. */
  footer?: ReactNode;
}

export function StandalonePage({ children, footer }: StandalonePageProps) {
  return (
    <div className={styles.page}>
      <header className={styles.brand}>
        <Link href="/">Gatehouse</Link>
      </header>
      <main id="main-content" className={styles.panel}>
        {children}
      </main>
      {footer ? <footer className={styles.footer}>{footer}</footer> : null}
    </div>
  );
}
