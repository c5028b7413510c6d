// The framework's floor for `npm run lighthouse`: a bare Next.js page, no code of the portal's. Audited in the
// same run and browser as the portal's pages, it shows what this machine's CPU costs any Next.js page.
export const metadata = { title: "Framework floor", description: "A bare Next.js page with one client component." };

export default function RootLayout({ children }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
