// Small labels. The word is always there (colour alone never carries the meaning); a mark beside it is a
// second cue. Text/background pairs reach at least 4.5:1 in both themes (tokens in app/globals.css).
import type { ReactNode } from "react";

import { PRIVACY_NAMES, type ReportPrivacy, type ReportResult, type Role } from "@/lib/contract/values";

import styles from "./badge.module.css";

export type BadgeTone = "success" | "warning" | "error" | "info" | "neutral" | "outline";

export interface BadgeProps {
  tone?: BadgeTone;
  /** A decorative symbol before the text; hidden from assistive technology. */
  mark?: string;
  children: ReactNode;
  className?: string;
}

export function Badge({ tone = "neutral", mark, children, className }: BadgeProps) {
  return (
    <span className={[styles.badge, styles[tone], className].filter(Boolean).join(" ")}>
      {mark ? (
        <span className={styles.mark} aria-hidden="true">
          {mark}
        </span>
      ) : null}
      {children}
    </span>
  );
}

export const RESULT_LABELS: Record<ReportResult, string> = { good: "Good", decent: "Decent", bad: "Bad" };

const RESULT_LOOK: Record<ReportResult, { tone: BadgeTone; mark: string }> = {
  good: { tone: "success", mark: "●" },
  decent: { tone: "warning", mark: "◆" },
  bad: { tone: "error", mark: "▲" },
};

/** A report's result: Good / Decent / Bad. */
export function ResultBadge({ result }: { result: ReportResult }) {
  const look = RESULT_LOOK[result];
  return (
    <Badge tone={look.tone} mark={look.mark}>
      {RESULT_LABELS[result]}
    </Badge>
  );
}

const PRIVACY_LOOK: Record<ReportPrivacy, { tone: BadgeTone; mark: string }> = {
  0: { tone: "info", mark: "◯" },
  1: { tone: "neutral", mark: "■" },
  2: { tone: "outline", mark: "✱" },
};

/** A report page's privacy: Public / Private / Password. */
export function PrivacyBadge({ privacy }: { privacy: ReportPrivacy }) {
  return (
    <Badge tone={PRIVACY_LOOK[privacy].tone} mark={PRIVACY_LOOK[privacy].mark}>
      {PRIVACY_NAMES[privacy]}
    </Badge>
  );
}

export const ROLE_LABELS: Record<Role, string> = {
  admin: "Admin",
  editor: "Editor",
  viewer: "Viewer",
  support: "Support",
};

const ROLE_TONE: Record<Role, BadgeTone> = { admin: "error", editor: "info", viewer: "neutral", support: "warning" };

/** A Gatehouse user's role. */
export function RoleBadge({ role }: { role: Role }) {
  return <Badge tone={ROLE_TONE[role]}>{ROLE_LABELS[role]}</Badge>;
}
