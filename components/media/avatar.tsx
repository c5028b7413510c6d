// A round picture of a person, or their initials when there is no usable picture or it fails to load.
// Server-renderable.
import { safeHttpUrl } from "../url";
import { FallbackImage } from "./fallback-image";
import styles from "./media.module.css";

export interface AvatarProps {
  name: string;
  /** Picture URL (untrusted); only http(s) is used. */
  src?: string | null;
  size?: "sm" | "md" | "lg";
}

/** "Ada Lovelace" → "AL"; "ada" → "A". */
export function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const first = words[0]?.[0] ?? "?";
  const last = words.length > 1 ? (words[words.length - 1]?.[0] ?? "") : "";
  return (first + last).toUpperCase();
}

export function Avatar({ name, src, size = "md" }: AvatarProps) {
  const url = safeHttpUrl(src);
  const className = `${styles.avatar} ${styles[`avatar-${size}`]}`;
  const letters = (
    <span className={className} aria-hidden="true" data-media-failed={url ? "" : undefined}>
      {initials(name)}
    </span>
  );
  if (url) {
    // Remote upstream images: next/image would need every upstream host configured; a lazy <img> is enough.
    return (
      <FallbackImage
        src={url}
        alt={`${name}'s avatar`}
        className={className}
        loading="lazy"
        decoding="async"
        fallback={letters}
      />
    );
  }
  return letters;
}
