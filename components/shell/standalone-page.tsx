// The frame of pages shown outside the portal shell (sign-in, "page not found", a failure before the shell
// could render): the product name and one centred panel, inside a <main> landmark. Rendered inside the shell
// (a portal page that calls forbidden() or notFound()), it is the panel alone: the shell already shows the
// name and holds the <main>, and the 403 page once showed the logo twice. Server-renderable.
import Link from "next/link";
import type { ReactNode } from "react";

import { UnlessInShell } from "./in-shell";
import styles from "./standalone-page.module.css";

export interface StandalonePageProps {
  children: ReactNode;
  /** Under the panel, e.g. a hint about demo accounts. */
  footer?: ReactNode;
}

export function StandalonePage({ children, footer }: StandalonePageProps) {
  return (
    <UnlessInShell
      inShell={
        <div className={styles.inShell}>
          <div className={styles.panel}>{children}</div>
          {footer ? <div className={styles.footer}>{footer}</div> : null}
        </div>
      }
    >
      <StandaloneFrame footer={footer}>{children}</StandaloneFrame>
    </UnlessInShell>
  );
}

function StandaloneFrame({ children, footer }: StandalonePageProps) {
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
