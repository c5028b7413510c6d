import type { Metadata } from "next";
import { redirect } from "next/navigation";

import { StandalonePage } from "@/components/shell/standalone-page";
import { getCurrentUser } from "@/lib/auth/current-user";
import { safeNextPath } from "@/lib/auth/safe-next";
import { getUpstreams } from "@/lib/upstream";

import { LoginForm } from "./login-form";
import { signInFailure } from "./messages";

export const metadata: Metadata = { title: "Sign in" };

export default async function LoginPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const query = await searchParams;
  const next = safeNextPath(query.next);
  if (await getCurrentUser()) redirect(next);
  // After the form was posted without JavaScript and refused: the error code (and a wait), never what was typed.
  const retry = typeof query.retry === "string" && /^\d{1,6}$/.test(query.retry) ? Number(query.retry) : undefined;
  const failure = signInFailure(typeof query.error === "string" ? query.error : undefined, retry);
  const { config } = await getUpstreams();

  return (
    <StandalonePage
      footer={
        config.mode === "demo" ? (
          <p>
            Demo mode: sign in as <code>admin@demo.test</code>, <code>editor@demo.test</code>, <code>viewer@demo.test</code> or{" "}
            <code>support@demo.test</code> with the password <code>gatehouse-demo</code>.
          </p>
        ) : undefined
      }
    >
      <h1>Sign in to Gatehouse</h1>
      <LoginForm next={next} initialFailure={failure} />
    </StandalonePage>
  );
}
