"use client";
// A form that sends its fields to the API: busy while the request is out, the gateway's field errors beside
// their fields, anything else in the form's error banner (with the request id to quote), the form cleared after
// a success. The tokens and webhooks pages share it.
import { useState, type FormEvent } from "react";

import { apiRequest, ApiRequestError } from "@/lib/portal/api-client";

export interface FormPostState {
  busy: boolean;
  /** The gateway's message per field name (e.g. { url: "must be https" }). */
  fields: Record<string, string>;
  failure: { message: string; requestId?: string } | null;
}

/**
 * `submit(event, path, body, onDone)`: posts `body` (made from the form by the caller) and hands the answer's
 * data to `onDone`.
 */
export function useFormPost(): FormPostState & {
  submit: <T>(
    event: FormEvent<HTMLFormElement>,
    path: string,
    body: unknown,
    onDone: (data: T) => void,
  ) => Promise<void>;
} {
  const [fields, setFields] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<FormPostState["failure"]>(null);
  const [busy, setBusy] = useState(false);

  const submit = async <T>(
    event: FormEvent<HTMLFormElement>,
    path: string,
    body: unknown,
    onDone: (data: T) => void,
  ) => {
    const form = event.currentTarget;
    setFields({});
    setFailure(null);
    setBusy(true);
    try {
      const { data } = await apiRequest<{ data: T }>(path, { method: "POST", body });
      form.reset();
      onDone(data);
    } catch (error) {
      if (!(error instanceof ApiRequestError)) throw error;
      setFields(error.fields ?? {});
      setFailure({ message: error.message, requestId: error.requestId });
    } finally {
      setBusy(false);
    }
  };
  return { busy, fields, failure, submit };
}
