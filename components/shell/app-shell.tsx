"use client";
// The portal's frame: skip link, top bar, side navigation, and the main landmark pages render into.
//
// Pages pass the navigation they are allowed to show (filter by role with can() before passing it), the
// signed-in user, and the account controls (theme toggle, logout form) as `accountActions`. On screens up to
// 48rem the navigation collapses behind a menu button; it closes again after navigating or on Escape. Keyboard
// shortcuts (`?` lists them) are keyboard-shortcuts.tsx.
import Link from "next/link";
import { usePathname } from "next/navigation";
import { useRef, useState, type KeyboardEvent, type ReactNode } from "react";

import { Button } from "../ui/button";
import styles from "./app-shell.module.css";
import { InShellProvider } from "./in-shell";
import { KeyboardShortcuts } from "./keyboard-shortcuts";

export interface NavItem {
  href: string;
  label: string;
  /** Consecutive items with the same group are listed together under that heading. */
  group?: string;
  /** The letter that goes here after `g` (see keyboard-shortcuts.tsx). */
  shortcut?: string;
}

type NavRow = { kind: "item"; item: NavItem } | { kind: "group"; label: string; items: NavItem[] };

/** The navigation as rows: single items, and runs of items of one group gathered under it. */
export function navRows(nav: readonly NavItem[]): NavRow[] {
  const rows: NavRow[] = [];
  for (const item of nav) {
    const last = rows.at(-1);
    if (item.group && last?.kind === "group" && last.label === item.group) last.items.push(item);
    else if (item.group) rows.push({ kind: "group", label: item.group, items: [item] });
    else rows.push({ kind: "item", item });
  }
  return rows;
}

export interface AppShellProps {
  /** The product name shown in the top bar, linking home. */
  brand?: string;
  brandHref?: string;
  nav: readonly NavItem[];
  /** E.g. <UserBadge>; shown at the foot of the navigation. */
  user?: ReactNode;
  /** E.g. <ThemeToggle /> and a logout form; under the user. */
  accountActions?: ReactNode;
  /** Extra items at the end of the top bar. */
  topBarEnd?: ReactNode;
  children: ReactNode;
}

/** Whether `href` is the current section: exact for "/", else the path or anything under it. */
export function isCurrentPath(pathname: string, href: string): boolean {
  if (href === "/") return pathname === "/";
  return pathname === href || pathname.startsWith(`${href}/`);
}

export function AppShell({
  brand = "Gatehouse",
  brandHref = "/",
  nav,
  user,
  accountActions,
  topBarEnd,
  children,
}: AppShellProps) {
  const pathname = usePathname();
  const [menuOpen, setMenuOpen] = useState(false);
  const [menuPath, setMenuPath] = useState(pathname);
  const menuButtonRef = useRef<HTMLButtonElement>(null);

  // Navigating closes the phone menu (state adjusted while rendering, as React recommends over an effect).
  if (pathname !== menuPath) {
    setMenuPath(pathname);
    setMenuOpen(false);
  }

  // The most specific match wins, so /reports/new marks "New report" rather than "Reports" when both exist.
  const current = nav
    .filter((item) => isCurrentPath(pathname, item.href))
    .sort((a, b) => b.href.length - a.href.length)[0]?.href;

  const navLink = (item: NavItem) => (
    <Link
      href={item.href}
      className={[styles.navLink, item.group ? styles.navLinkInGroup : undefined].filter(Boolean).join(" ")}
      aria-current={item.href === current ? "page" : undefined}
      onClick={() => setMenuOpen(false)}
    >
      {item.label}
    </Link>
  );

  const closeOnEscape = (event: KeyboardEvent) => {
    if (event.key === "Escape" && menuOpen) {
      setMenuOpen(false);
      menuButtonRef.current?.focus();
    }
  };

  return (
    <>
      <a href="#main-content" className={styles.skipLink}>
        Skip to main content
      </a>
      <header className={styles.topBar}>
        <Button
          ref={menuButtonRef}
          variant="secondary"
          size="sm"
          className={styles.menuButton}
          aria-expanded={menuOpen}
          aria-controls="primary-navigation"
          onClick={() => setMenuOpen((open) => !open)}
        >
          <span aria-hidden="true">☰</span> Menu
        </Button>
        <span className={styles.brand}>
          <Link href={brandHref}>{brand}</Link>
        </span>
        {topBarEnd ? <div className={styles.topBarEnd}>{topBarEnd}</div> : null}
      </header>
      <div className={styles.frame}>
        <div
          id="primary-navigation"
          className={[styles.sidebar, menuOpen ? styles.open : undefined].filter(Boolean).join(" ")}
          onKeyDown={closeOnEscape}
        >
          <nav aria-label="Main">
            <ul className={styles.navList}>
              {navRows(nav).map((row) => {
                if (row.kind === "item") return <li key={row.item.href}>{navLink(row.item)}</li>;
                const labelId = `nav-group-${row.label.replace(/[^A-Za-z0-9]+/g, "-")}`;
                return (
                  <li key={labelId} className={styles.navGroup}>
                    <span className={styles.navGroupLabel} id={labelId}>
                      {row.label}
                    </span>
                    <ul className={styles.navList} aria-labelledby={labelId}>
                      {row.items.map((item) => (
                        <li key={item.href}>{navLink(item)}</li>
                      ))}
                    </ul>
                  </li>
                );
              })}
            </ul>
          </nav>
          {user || accountActions ? (
            <section className={styles.account} aria-label="Your account">
              {user}
              {accountActions}
            </section>
          ) : null}
        </div>
        <main id="main-content" tabIndex={-1} className={styles.main}>
          <div className={styles.content}>
            <InShellProvider>{children}</InShellProvider>
          </div>
        </main>
      </div>
      <KeyboardShortcuts nav={nav} />
    </>
  );
}
