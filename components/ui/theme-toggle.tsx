"use client";
// Light / Dark / System as three radio buttons (arrow keys move between them). The choice goes to
// localStorage and to <html data-theme>, which the design tokens in app/globals.css follow; "System" removes
// the attribute so prefers-color-scheme decides. themeScript (../theme-script.ts) reapplies it before paint.
import { useId, useLayoutEffect, useSyncExternalStore } from "react";

import { THEME_STORAGE_KEY, THEMES, type ThemeChoice } from "../theme-script";
import styles from "./theme-toggle.module.css";

const CHANGE_EVENT = "gatehouse-theme-change";
const LABELS: Record<ThemeChoice, string> = { light: "Light", dark: "Dark", system: "System" };

function readChoice(): ThemeChoice {
  try {
    const saved = localStorage.getItem(THEME_STORAGE_KEY);
    return saved === "light" || saved === "dark" ? saved : "system";
  } catch {
    return "system"; // storage blocked (privacy mode): the OS decides
  }
}

function subscribe(onChange: () => void) {
  window.addEventListener("storage", onChange); // another tab changed it
  window.addEventListener(CHANGE_EVENT, onChange);
  return () => {
    window.removeEventListener("storage", onChange);
    window.removeEventListener(CHANGE_EVENT, onChange);
  };
}

/** Applies and remembers a theme choice. */
export function setThemeChoice(choice: ThemeChoice) {
  try {
    if (choice === "system") localStorage.removeItem(THEME_STORAGE_KEY);
    else localStorage.setItem(THEME_STORAGE_KEY, choice);
  } catch {
    // Not remembered, but still applied for this page.
  }
  if (choice === "system") document.documentElement.removeAttribute("data-theme");
  else document.documentElement.setAttribute("data-theme", choice);
  window.dispatchEvent(new Event(CHANGE_EVENT));
}

/**
 * Puts the saved choice back on <html> once React has rendered the document. A page answered with an error
 * status (the 403 page) is rendered in the browser, and React 19 clears the attributes of the <html> it takes
 * over, so themeScript's data-theme would be lost. A layout effect: before the first paint.
 */
export function ThemeKeeper() {
  useLayoutEffect(() => {
    const choice = readChoice();
    if (choice !== "system" && document.documentElement.getAttribute("data-theme") !== choice)
      document.documentElement.setAttribute("data-theme", choice);
  }, []);
  return null;
}

export function ThemeToggle({ label = "Theme" }: { label?: string }) {
  const choice = useSyncExternalStore(subscribe, readChoice, () => "system" as const);
  const name = useId();
  return (
    <fieldset className={styles.group}>
      <legend className="visually-hidden">{label}</legend>
      {THEMES.map((theme) => (
        <label key={theme} className={styles.option}>
          <input
            type="radio"
            name={name}
            value={theme}
            checked={choice === theme}
            onChange={() => setThemeChoice(theme)}
            className={styles.input}
          />
          <span className={styles.text}>{LABELS[theme]}</span>
        </label>
      ))}
    </fieldset>
  );
}
