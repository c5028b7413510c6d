// /account/security: the person's second factors — passkeys, an authenticator app, recovery codes. Sent here first
// when the policy requires a second factor he does not have yet (?enrol=1: nothing else opens until he adds one).
import type { Metadata } from "next";

import { FormErrorBanner } from "@/components/ui/form-error-banner";
import { PageHeader } from "@/components/ui/page-header";
import { getServerContext } from "@/lib/auth/access";
import { requirePageUser } from "@/lib/auth/current-user";
import { factorSummary } from "@/lib/auth/factors/summary";

import { AuthenticatorSection } from "./authenticator-section";
import { PasskeysSection } from "./passkeys-section";
import { RecoveryCodesSection } from "./recovery-codes-section";

export const metadata: Metadata = { title: "Security" };

export default async function SecurityPage() {
  const user = await requirePageUser();
  const { db } = await getServerContext();
  const summary = await factorSummary(db, user.id);
  return (
    <>
      <PageHeader
        title="Security"
        description="A second factor beside your password: a passkey, or the codes of an authenticator app, with recovery codes for the day you lose your device."
      />
      {user.mustEnrol ? (
        <FormErrorBanner
          title="Add a second factor to go on"
          message="Your role must sign in with a second factor. Add a passkey or an authenticator app below; the rest of Gatehouse opens once you have."
        />
      ) : null}
      <PasskeysSection summary={summary} />
      <AuthenticatorSection summary={summary} />
      <RecoveryCodesSection summary={summary} />
    </>
  );
}
