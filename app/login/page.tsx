import type { Metadata } from "next";
import { redirect } from "next/navigation";

import { StandalonePage } from "@/components/shell/standalone-page";
import { buttonClassName } from "@/components/ui/button-styles";
import { FormErrorBanner } from "@/components/ui/form-error-banner";
import { getCurrentUser, ssoRestartPath } from "@/lib/auth/current-user";
import { startPath } from "@/lib/auth/oidc/flow";
import { safeNextPath } from "@/lib/auth/safe-next";
import { getSignInSettings } from "@/lib/config/oidc";
import { getUpstreams } from "@/lib/upstream";

import { LoginForm } from "./login-form";
import styles from "./login.module.css";
import { signInFailure } from "./messages";
import { PasskeySignIn } from "./passkey-sign-in";

export const metadata: Metadata = { title: "Sign in" };

type Query = Record<string, string | string[] | undefined>;

export default async function LoginPage({ searchParams }: { searchParams: Promise<Query> }) {
  const query = await searchParams;
  const next = safeNextPath(query.next);
  if (await getCurrentUser()) redirect(next);
  const { oidc, passwordLogin } = getSignInSettings();
  const provider = oidc ? { label: oidc.label, claim: oidc.roleClaim } : undefined;
  // After a refusal: the error code (and a wait), never what was typed or what the provider sent.
  const error = typeof query.error === "string" ? query.error : undefined;
  // A single sign-on session whose re-check is due or ended it (an API call's 401 sends the browser here) goes
  // through the provider, as any page would, which says why. Not when this is already an answer (an error: the
  // flow's every refusal comes back here with one), nor for the break-glass admin's password form.
  if (error === undefined && query.password !== "1") {
    const restart = await ssoRestartPath(next);
    if (restart) redirect(restart);
  }
  const retry = typeof query.retry === "string" && /^\d{1,6}$/.test(query.retry) ? Number(query.retry) : undefined;
  const failure = signInFailure(error, retry, provider);
  const ssoFailure =
    failure !== null && error !== undefined && (error.startsWith("sso_") || error === "password_login_off");
  // With password sign-in off, the form is for the break-glass admin only, behind a link.
  const showPasswordForm = passwordLogin || query.password === "1" || (error !== undefined && !ssoFailure);
  const { config } = await getUpstreams();

  if (oidc && error === "sso_no_role") {
    return (
      <StandalonePage>
        <h1>No access to Gatehouse</h1>
        <div className={styles.form}>
          <FormErrorBanner message={failure} title="Not signed in" />
          <a className={buttonClassName({ variant: "secondary", fullWidth: true })} href={startPath(next, "login")}>
            Sign in with another {oidc.label} account
          </a>
        </div>
      </StandalonePage>
    );
  }

  return (
    <StandalonePage
      footer={
        config.mode === "demo" ? (
          <p>
            Demo mode: sign in as <code>admin@demo.test</code>, <code>editor@demo.test</code>,{" "}
            <code>viewer@demo.test</code> or <code>support@demo.test</code> with the password{" "}
            <code>gatehouse-demo</code>.
          </p>
        ) : undefined
      }
    >
      <h1>Sign in to Gatehouse</h1>
      <div className={styles.form}>
        {oidc ? (
          <>
            {ssoFailure ? <FormErrorBanner message={failure} title="Not signed in" /> : null}
            {/* A plain link, not next/link: it must not be prefetched (that would start a sign-in at the provider). */}
            <a className={buttonClassName({ variant: "primary", fullWidth: true })} href={startPath(next)}>
              Sign in with {oidc.label}
            </a>
          </>
        ) : null}
        {oidc && showPasswordForm ? (
          <p className={styles.divider}>
            {passwordLogin ? "or with your email and password" : "Break-glass administrator: sign in with a password"}
          </p>
        ) : null}
        {showPasswordForm ? (
          <LoginForm next={next} initialFailure={oidc && ssoFailure ? null : failure} provider={provider} />
        ) : null}
        {showPasswordForm ? <PasskeySignIn next={next} provider={provider} /> : null}
        {oidc && !showPasswordForm ? (
          <p className={styles.aside}>
            <a href={`/login?${new URLSearchParams({ password: "1", ...(next !== "/" ? { next } : {}) })}`}>
              Break-glass administrator? Sign in with a password
            </a>
          </p>
        ) : null}
      </div>
    </StandalonePage>
  );
}
