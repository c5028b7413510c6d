"use client";
// Whether a component renders inside the portal's shell (AppShell), which already shows the product name and
// holds the page's <main>. Next.js may render app/forbidden.tsx, not-found.tsx or error.tsx inside the
// portal's layout or outside it; StandalonePage asks this so that the logo and the main landmark appear once.
import { createContext, useContext, type ReactNode } from "react";

const InShellContext = createContext(false);

export function InShellProvider({ children }: { children: ReactNode }) {
  return <InShellContext value={true}>{children}</InShellContext>;
}

export function useInShell(): boolean {
  return useContext(InShellContext);
}

/** Children inside the shell, `outside` otherwise. */
export function UnlessInShell({ children, inShell }: { children: ReactNode; inShell: ReactNode }) {
  return <>{useInShell() ? inShell : children}</>;
}
