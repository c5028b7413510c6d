import { Counter } from "./counter";

// Rendered at each request, as the portal's pages are.
export const dynamic = "force-dynamic";

export default function Page() {
  return (
    <main>
      <h1>Framework floor</h1>
      <p>A bare Next.js page: one server component and one client component.</p>
      <Counter />
    </main>
  );
}
