import type { Metadata } from "next";
import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";

import { StandalonePage } from "@/components/shell/standalone-page";
import { getServerContext, sessionSettingsFor } from "@/lib/auth/access";
import { readPendingSignIn } from "@/lib/auth/factors/pending";
import { secondStepMethods } from "@/lib/auth/factors/steps";
import { safeNextPath } from "@/lib/auth/safe-next";

import styles from "../login.module.css";
import { signInFailure } from "../messages";
import { CodeStepForm } from "./code-step-form";
import { PasskeyStep } from "./passkey-step";

export const metadata: Metadata = { title: "Second step" };

type Query = Record<string, string | string[] | undefined>;

// The second step of a sign-in, after a right password (lib/auth/factors/pending.ts): a passkey, the
// authenticator app's code, or a recovery code — whichever the person has. Without a sign-in in flight, back to
// the password.
export default async function SecondStepPage({ searchParams }: { searchParams: Promise<Query> }) {
  const query = await searchParams;
  const next = safeNextPath(query.next);
  const [cookieStore, headerList, { db, config }] = await Promise.all([cookies(), headers(), getServerContext()]);
  const pending = readPendingSignIn(cookieStore, sessionSettingsFor(config, headerList));
  const back = `/login?${new URLSearchParams({ error: "second_step_expired", ...(next !== "/" ? { next } : {}) })}`;
  if (!pending) redirect(back);
  const methods = await secondStepMethods(db, { id: pending.userId });
  if (methods.length === 0) redirect(back);

  const error = typeof query.error === "string" ? query.error : undefined;
  const retry = typeof query.retry === "string" && /^\d{1,6}$/.test(query.retry) ? Number(query.retry) : undefined;
  const failure = error === undefined ? null : signInFailure(error, retry);
  const recoveryOnly = query.method === "recovery" || !methods.some((m) => m === "totp" || m === "passkey");

  return (
    <StandalonePage>
      <h1>Confirm it is you</h1>
      <div className={styles.form}>
        {methods.includes("passkey") && !recoveryOnly ? <PasskeyStep next={pending.next} /> : null}
        {methods.includes("totp") && !recoveryOnly ? (
          <CodeStepForm method="totp" next={pending.next} initialFailure={failure} />
        ) : null}
        {recoveryOnly && methods.includes("recovery") ? (
          <CodeStepForm method="recovery" next={pending.next} initialFailure={failure} />
        ) : null}
        {!recoveryOnly && methods.includes("recovery") ? (
          <p className={styles.aside}>
            <a href={`/login/second-step?${new URLSearchParams({ method: "recovery", next })}`}>
              Lost your device? Use a recovery code
            </a>
          </p>
        ) : null}
        <p className={styles.aside}>
          <a href="/login">Sign in as someone else</a>
        </p>
      </div>
    </StandalonePage>
  );
}
