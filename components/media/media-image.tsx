// An image from an upstream URL: lazy-loaded, with the alt text the caller gives (say what it shows, or ""
// when the picture is decoration next to text that says the same). A non-http(s) URL shows the fallback; a
// picture that fails to load becomes a neutral box of the same size with the alt text (FailedMedia).
// Server-renderable (the image itself is a small client component that notices the failure).
import type { CSSProperties, ReactNode } from "react";

import { safeHttpUrl } from "../url";
import { FallbackImage } from "./fallback-image";
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

export function MediaImage({
  src,
  alt,
  width,
  height,
  fit = "contain",
  priority = false,
  className,
  fallback,
}: MediaImageProps) {
  const url = safeHttpUrl(src);
  if (!url) {
    return fallback === undefined ? (
      <span className={[styles.placeholder, className].filter(Boolean).join(" ")}>No image</span>
    ) : (
      <>{fallback}</>
    );
  }
  const imageClass = [styles.image, fit === "cover" ? styles.cover : undefined, className].filter(Boolean).join(" ");
  return (
    // Remote upstream images: next/image would need every upstream host configured; a lazy <img> is enough.
    <FallbackImage
      src={url}
      alt={alt}
      width={width}
      height={height}
      loading={priority ? "eager" : "lazy"}
      decoding="async"
      className={imageClass}
      fallback={<FailedMedia alt={alt} className={imageClass} width={width} height={height} />}
    />
  );
}

/**
 * What a picture that failed to load leaves: a quiet box of the picture's size (its class, and its intrinsic
 * ratio when known) holding the alt text, read out as the image it stands for. Decoration (alt "") stays an
 * empty box, hidden from screen readers like the image was.
 */
export function FailedMedia({
  alt,
  className,
  width,
  height,
}: {
  alt: string;
  className?: string;
  width?: number;
  height?: number;
}) {
  // As custom properties read by a rule of no specificity: the caller's class (e.g. width: 5rem) wins, as it
  // does over an <img>'s width attribute.
  const style = (
    width && height ? { "--media-width": `${width}px`, "--media-ratio": `${width} / ${height}` } : {}
  ) as CSSProperties;
  // Without a known ratio the box keeps a height of its own rather than shrinking to a line of text.
  const boxClass = [className, styles.failed, width && height ? styles.failedSized : styles.failedFree]
    .filter(Boolean)
    .join(" ");
  if (alt === "") return <span className={boxClass} style={style} aria-hidden="true" data-media-failed="" />;
  return (
    <span className={boxClass} style={style} role="img" aria-label={alt} data-media-failed="">
      <span aria-hidden="true">{alt}</span>
    </span>
  );
}
