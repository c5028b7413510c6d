// The framework's floor for `npm run bench`: a bare route handler, no code of the portal's. Run at each request
// (route segment config, as the portal's API routes are run), it shows what any Next.js API route costs here.
export const dynamic = "force-dynamic";

export function GET() {
  return Response.json({ ok: true });
}
