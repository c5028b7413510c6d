// A form-level failure that belongs to no single field ("The gateway could not reach the reports service"),
// announced with role="alert". The request id lets support find the log line.
import type { ReactNode } from "react";

import styles from "./form-feedback.module.css";

export interface FormErrorBannerProps {
  /** What went wrong and what to do; nothing renders when empty. */
  message: ReactNode;
  requestId?: string;
  title?: string;
}

export function FormErrorBanner({ message, requestId, title }: FormErrorBannerProps) {
  if (!message) return null;
  return (
    <div role="alert" className={styles.banner}>
      {title ? <p className={styles.bannerTitle}>{title}</p> : null}
      <div>{message}</div>
      {requestId ? (
        <p className={styles.requestId}>
          Request id: <code>{requestId}</code>
        </p>
      ) : null}
    </div>
  );
}
