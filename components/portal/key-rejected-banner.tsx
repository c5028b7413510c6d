// The admins' banner on every portal page while an upstream rejects the key in use (401/403): which API, since
// when, and the way to the page that rotates it. Renders nothing when no key is rejected.
import Link from "next/link";

import { LocalTime } from "../ui/local-time";
import styles from "../ui/form-feedback.module.css";

export interface RejectedKey {
  /** "the item API", as a person reads it. */
  api: string;
  at: string;
  fingerprint: string;
  /** The key is set in the environment: rotating it is an operator's change, not this page's. */
  inEnvironment: boolean;
}

export function KeyRejectedBanner({ rejected }: { rejected: readonly RejectedKey[] }) {
  if (rejected.length === 0) return null;
  return (
    <div role="alert" className={styles.banner} data-testid="key-rejected-banner">
      {rejected.map((key) => (
        <p key={key.api}>
          {key.api.charAt(0).toUpperCase() + key.api.slice(1)} rejected its key ({key.fingerprint}) at{" "}
          <LocalTime iso={key.at} display="datetime" />;{" "}
          {key.inEnvironment ? (
            <>
              it is set in the environment, so an operator must replace it (see{" "}
              <Link href="/admin/upstream">Upstream connections</Link>)
            </>
          ) : (
            <Link href="/admin/upstream">rotate it here</Link>
          )}
          .
        </p>
      ))}
    </div>
  );
}
