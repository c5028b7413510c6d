import type { Metadata } from "next";
import { redirect } from "next/navigation";

import { StandalonePage } from "@/components/shell/standalone-page";
import { getCurrentUser } from "@/lib/auth/current-user";
import { safeNextPath } from "@/lib/portal/safe-next";
import { getUpstreams } from "@/lib/upstream";

import { LoginForm } from "./login-form";

export const metadata: Metadata = { title: "Sign in" };

export default async function LoginPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const next = safeNextPath((await searchParams).next);
  if (await getCurrentUser()) redirect(next);
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
      <LoginForm next={next} />
    </StandalonePage>
  );
}
