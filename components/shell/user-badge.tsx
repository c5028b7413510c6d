// Who is signed in: avatar initials, name and role. Server-renderable.
import type { Role } from "@/lib/contract/values";

import { Avatar } from "../media/avatar";
import { RoleBadge } from "../ui/badge";
import styles from "./user-badge.module.css";

export interface UserBadgeProps {
  name: string;
  role: Role;
  /** Shown under the name, e.g. the e-mail address. */
  detail?: string;
}

export function UserBadge({ name, role, detail }: UserBadgeProps) {
  return (
    <div className={styles.badge}>
      <Avatar name={name} size="sm" />
      <div className={styles.text}>
        <span className={styles.name}>{name}</span>
        {detail ? <span className={styles.detail}>{detail}</span> : null}
        <span className="visually-hidden">Role: </span>
        <RoleBadge role={role} />
      </div>
    </div>
  );
}
