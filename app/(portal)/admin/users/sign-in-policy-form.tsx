"use client";
// Admin → Users, "Second factor": who must sign in with a second factor (nobody, admins, everyone with a password),
// saved through PUT /api/admin/sign-in-policy. A person it covers who has none is sent to enrol at his next
// sign-in; whoever enrolled a factor always uses it.
import { useState, type FormEvent } from "react";

import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { FormErrorBanner } from "@/components/ui/form-error-banner";
import { RadioGroup } from "@/components/ui/radio-group";
import { useToast } from "@/components/ui/toast";
import { useApiForm } from "@/components/use-api-form";
import type { SecondFactorPolicy } from "@/lib/contract/values";

import formStyles from "../../forms.module.css";

const OPTIONS = [
  { value: "off", label: "Nobody must", hint: "Each person may add a second factor; whoever has one uses it." },
  { value: "admins", label: "Admins must", hint: "An admin without a second factor is sent to add one at sign-in." },
  {
    value: "everyone",
    label: "Everyone must",
    hint: "Every person who signs in with a password is sent to add one at sign-in.",
  },
] as const;

export function SignInPolicyForm({ initialPolicy }: { initialPolicy: SecondFactorPolicy }) {
  const form = useApiForm({ fieldNames: ["second_factor_policy"] });
  const toast = useToast();
  const [policy, setPolicy] = useState<string>(initialPolicy);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const answer = await form.send<{ data: { second_factor_policy: string } }>("/api/admin/sign-in-policy", {
      method: "PUT",
      body: { second_factor_policy: policy },
    });
    if (answer) {
      setPolicy(answer.data.second_factor_policy);
      toast.success("Second-factor policy saved.");
    }
  };

  return (
    <Card title="Second factor" asSection>
      <form
        noValidate
        className={formStyles.form}
        onSubmit={(event) => void submit(event)}
        aria-label="Second-factor policy"
      >
        <FormErrorBanner
          title="The policy was not saved"
          message={form.failure?.message}
          requestId={form.failure?.requestId}
        />
        <RadioGroup
          name="second_factor_policy"
          label="Who must sign in with a second factor (a passkey or an authenticator app)"
          options={OPTIONS}
          value={policy}
          onChange={(value) => setPolicy(value)}
          error={form.fields.second_factor_policy}
        />
        <div className={formStyles.buttons}>
          <Button type="submit" variant="primary" loading={form.busy} loadingText="Saving…">
            Save policy
          </Button>
        </div>
      </form>
    </Card>
  );
}
