// An image from an upstream URL: lazy-loaded, with the alt text the caller gives (say what it shows, or ""
// when the picture is decoration next to text that says the same). A non-http(s) URL shows the fallback.
// Server-renderable.
import type { ReactNode } from "react";

import { safeHttpUrl } from "../url";
import styles from "./media.module.css";

export interface MediaImageProps {
  src: string | null | undefined;
  alt: string;
  /** Intrinsic size, when known, reserves the space and avoids layout shift. */
  width?: number;
  height?: number;
  /** "cover" crops to fill the box (thumbnails, covers); "contain" (default) shows all of it. */
  fit?: "contain" | "cover";
  /** Load at once (the page's main picture); lazy otherwise. */
  priority?: boolean;
  className?: string;
  /** Shown when there is no usable URL; a quiet "No image" box by default. */
  fallback?: ReactNode;
}

export function MediaImage({ src, alt, width, height, fit = "contain", priority = false, className, fallback }: MediaImageProps) {
  const url = safeHttpUrl(src);
  if (!url) {
    return fallback === undefined ? (
      <span className={[styles.placeholder, className].filter(Boolean).join(" ")}>No image</span>
    ) : (
      <>{fallback}</>
    );
  }
  return (
    // Remote upstream images: next/image would need every upstream host configured; a lazy <img> is enough.
    // eslint-disable-next-line @next/next/no-img-element
    <img
      src={url}
      alt={alt}
      width={width}
      height={height}
      loading={priority ? "eager" : "lazy"}
      decoding="async"
      className={[styles.image, fit === "cover" ? styles.cover : undefined, className].filter(Boolean).join(" ")}
    />
  );
}
