"use client";
// Every form that sends to the API: busy while the request is out, the gateway's field errors beside their
// fields, anything else in the form's error banner (with the request id to quote), the form cleared after a
// success. The request runs through SWR's useSWRMutation, under a key of its own so no list is revalidated by it.
// A one-button action (acknowledge, regenerate, delete after a confirm…) is the same hook without fields:
// useApiAction, whose caller shows the failure where it belongs (a toast, the confirm dialog, a banner).
// A sensitive action the gateway answers 403 step_up_required (the session's last proof is too old) is asked for
// in place: the step-up dialog (components/portal/step-up-dialog.tsx, through StepUpContext) takes a fresh proof,
// then the same request is sent again, so the form goes on with what was typed; cancelled, the form stays as it
// was and its banner says why nothing was sent.
import { createContext, useContext, useId, useState } from "react";
import useSWRMutation from "swr/mutation";

import { fieldSentence } from "@/lib/contract/field-messages";
import { apiRequest, ApiRequestError, type ApiRequestOptions } from "@/lib/portal/api-client";

/**
 * Asks the person for a fresh proof (the step-up dialog, with the gateway's sentence): resolves to true once he gave
 * one, false when he cancelled. Null outside the portal's providers: the refusal is then shown as any other.
 */
export type AskForStepUp = (message: string) => Promise<boolean>;
export const StepUpContext = createContext<AskForStepUp | null>(null);

/** The banner's words when the person closed the step-up dialog without a proof. */
export const STEP_UP_CANCELLED =
  "Nothing was sent: this needs you to confirm it is you first. What you entered is kept; send it again when you are ready.";

/** A message for the form's banner. */
export interface FormFailure {
  /** The banner's title, when it depends on the failure. */
  title?: string;
  message: string;
  requestId?: string;
}

/** The message per field name (e.g. { url: "must be https" }); a field without one is left out or undefined. */
export type FieldErrors = Partial<Record<string, string>>;

export interface ApiFormOptions {
  /**
   * The fields this form shows. When given, only their messages are taken from an answer, and the banner shows
   * only when none of them has one (a message about a field the form lacks still reaches the person). Without
   * it, every field message is taken and the banner always shows.
   */
  fieldNames?: readonly string[];
  /** The banner's words for a failure, when the gateway's own message is not the one to show. */
  failureOf?: (error: ApiRequestError) => FormFailure | null;
  /** A failure shown before anything is sent (the server's, for a form that worked without JavaScript). */
  initialFailure?: FormFailure | null;
  /** A success leaves the page: the form stays busy until the next one has loaded. */
  leavesOnSuccess?: boolean;
}

interface SendOptions extends ApiRequestOptions {
  /** After a success, still busy: what to wait for before the change shows (e.g. reloading its list). */
  refresh?: () => Promise<unknown>;
  /** The form to clear after a success. */
  reset?: HTMLFormElement;
  /** Called with the gateway's refusal (e.g. to move the focus to the field it names). */
  onRefused?: (error: ApiRequestError) => void;
}

interface Sent extends ApiRequestOptions {
  path: string;
  refresh?: () => Promise<unknown>;
}

export interface ApiForm {
  busy: boolean;
  fields: FieldErrors;
  failure: FormFailure | null;
  /** The form's own checks before sending: shows `found` and says whether all passed. Clears the banner. */
  check: (found: FieldErrors) => boolean;
  /** Shows a failure found without asking the API (e.g. nothing to save). */
  fail: (failure: FormFailure) => void;
  /**
   * Sends the request and resolves to the answer's body (undefined for a 204); false when the gateway refused (its
   * errors are then shown).
   */
  send: <T = unknown>(path: string, options?: SendOptions) => Promise<T | false>;
  /** Forgets errors and failure (a dialog closed). */
  clear: () => void;
}

export function useApiForm({
  fieldNames,
  failureOf,
  initialFailure = null,
  leavesOnSuccess = false,
}: ApiFormOptions = {}): ApiForm {
  const askForStepUp = useContext(StepUpContext);
  const { trigger, isMutating, error, reset } = useSWRMutation<unknown, unknown, readonly [string, string], Sent>(
    ["form", useId()],
    async (_key, { arg: { path, refresh, ...options } }) => {
      const answer = await requestWithStepUp(path, options, askForStepUp);
      await refresh?.();
      return answer;
    },
    { revalidate: false },
  );
  const [checked, setChecked] = useState<FieldErrors>({});
  const [ownFailure, setOwnFailure] = useState<FormFailure | null>(initialFailure);
  const [leaving, setLeaving] = useState(false);

  const refused = error instanceof ApiRequestError ? error : undefined;
  const fields = refused ? fieldsOf(refused, fieldNames) : checked;
  let failure = ownFailure;
  if (refused) {
    const hidden = fieldNames !== undefined && Object.values(fields).some(Boolean);
    failure = hidden ? null : (failureOf?.(refused) ?? { message: refused.message, requestId: refused.requestId });
  }

  const clear = () => {
    reset();
    setChecked({});
    setOwnFailure(null);
  };

  return {
    busy: isMutating || leaving,
    fields,
    failure,
    check: (found) => {
      clear();
      setChecked(found);
      return !Object.values(found).some(Boolean);
    },
    fail: (next) => setOwnFailure(next),
    send: async <T = unknown>(path: string, { reset: form, onRefused, ...options }: SendOptions = {}) => {
      clear();
      try {
        const answer = (await trigger({ path, ...options })) as T;
        form?.reset();
        if (leavesOnSuccess) setLeaving(true);
        return answer;
      } catch (thrown) {
        if (!(thrown instanceof ApiRequestError)) throw thrown;
        onRefused?.(thrown);
        return false;
      }
    },
    clear,
  };
}

/** A one-button action's state: busy, and its failure for the caller to show (the gateway's words or failureOf's). */
export type ApiAction = Pick<ApiForm, "busy" | "failure" | "send" | "clear">;

/** A request without a form around it: useApiForm's busy, failure and send, with no fields to show. */
export function useApiAction(options: Pick<ApiFormOptions, "failureOf" | "leavesOnSuccess"> = {}): ApiAction {
  const { busy, failure, send, clear } = useApiForm(options);
  return { busy, failure, send, clear };
}

/** apiRequest, and once more after a fresh proof when the gateway asks for one (403 step_up_required). */
async function requestWithStepUp(
  path: string,
  options: ApiRequestOptions,
  askForStepUp: AskForStepUp | null,
): Promise<unknown> {
  try {
    return await apiRequest(path, options);
  } catch (error) {
    if (!(error instanceof ApiRequestError) || error.code !== "step_up_required" || !askForStepUp) throw error;
    if (!(await askForStepUp(error.message)))
      throw new ApiRequestError({
        status: error.status,
        code: "step_up_cancelled",
        message: STEP_UP_CANCELLED,
        requestId: error.requestId,
      });
    return apiRequest(path, options);
  }
}

/** The gateway's field messages, each beside its field as a sentence of its own ("Must be https://.", not "url must…"). */
function fieldsOf(error: ApiRequestError, names: readonly string[] | undefined): FieldErrors {
  const all = Object.fromEntries(
    Object.entries(error.fields ?? {}).map(([name, message]) => [name, fieldSentence(name, message)]),
  );
  return names ? Object.fromEntries(names.filter((name) => all[name]).map((name) => [name, all[name]])) : all;
}
