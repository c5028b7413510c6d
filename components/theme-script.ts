// The theme chosen with <ThemeToggle>, applied before the first paint so a dark-mode reader never sees a
// white flash. The layout puts it in <head> with the CSP nonce:
//   <script nonce={nonce} dangerouslySetInnerHTML={{ __html: themeScript }} />
// and <html suppressHydrationWarning> (the attribute differs from the server's HTML by design).
// Plain module (no "use client"): the layout is a server component.

export const THEME_STORAGE_KEY = "gatehouse-theme";
export const THEMES = ["light", "dark", "system"] as const;
export type ThemeChoice = (typeof THEMES)[number];

/** Reads the saved choice and sets <html data-theme>; "system" (or nothing saved) leaves it to the OS. */
export const themeScript = `(function(){try{var t=localStorage.getItem(${JSON.stringify(THEME_STORAGE_KEY)});if(t==="light"||t==="dark")document.documentElement.setAttribute("data-theme",t)}catch(e){}})();`;
