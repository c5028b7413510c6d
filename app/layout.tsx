import "./globals.css";

import type { Metadata, Viewport } from "next";
import { headers } from "next/headers";
import type { ReactNode } from "react";

import { themeScript } from "@/components/theme-script";
import { ThemeKeeper } from "@/components/ui/theme-toggle";

export const metadata: Metadata = {
  title: { default: "Gatehouse", template: "%s · Gatehouse" },
  description: "Reports, projects, items and purchase checks, with the API keys kept on the server.",
  // A private tool behind a sign-in: no page of it belongs in a search engine, the sign-in page included.
  robots: { index: false, follow: false },
};

export const viewport: Viewport = {
  width: "device-width",
  initialScale: 1,
  colorScheme: "light dark",
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // proxy.ts gives each request a CSP nonce; the theme script runs before paint only if it carries it.
  const nonce = (await headers()).get("x-nonce") ?? undefined;
  return (
    // The theme script may set data-theme before React hydrates: that difference is expected.
    <html lang="en" suppressHydrationWarning>
      <head>
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: themeScript }} />
      </head>
      <body>
        <ThemeKeeper />
        {children}
      </body>
    </html>
  );
}
