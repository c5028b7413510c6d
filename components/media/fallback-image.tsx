"use client";
// An <img> that, when its picture fails to load (a dead upstream URL, a host that does not answer), gives way
// to a neutral box of the same size holding the alt text — never the browser's broken-image icon. A failure
// before React hydrated fires no onError, so the image is also checked once it is attached (complete, yet
// no pixels).
import { useCallback, useState, type ImgHTMLAttributes, type ReactNode } from "react";

export interface FallbackImageProps extends Omit<ImgHTMLAttributes<HTMLImageElement>, "src" | "alt" | "onError"> {
  src: string;
  alt: string;
  /** What shows instead of a picture that failed; the size comes from its class (the image's own). */
  fallback: ReactNode;
}

/** True for an image that finished loading without a picture (the request failed or the file is no image). */
function hasFailed(image: HTMLImageElement): boolean {
  return image.complete && image.naturalWidth === 0 && image.currentSrc !== "";
}

export function FallbackImage({ src, alt, fallback, ...rest }: FallbackImageProps) {
  // The failed URL rather than a flag: a new src gets its own try.
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  const attach = useCallback(
    (image: HTMLImageElement | null) => {
      if (image && hasFailed(image)) setFailedSrc(src);
    },
    [src],
  );
  if (failedSrc === src) return <>{fallback}</>;
  // eslint-disable-next-line @next/next/no-img-element -- remote upstream images: next/image would need every upstream host configured
  return <img ref={attach} src={src} alt={alt} {...rest} onError={() => setFailedSrc(src)} />;
}
