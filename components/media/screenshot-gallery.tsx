"use client";
// An item's screenshots as a grid of thumbnails. Each thumbnail is a button (Tab reaches it, Enter opens it)
// that opens a lightbox: a native modal with the large picture, Previous/Next buttons, the arrow keys, and a
// link to the full-size file. URLs that are not http(s) are left out; a screenshot that fails to load shows its
// alt text in a box of the thumbnail's size.
import { useState, type KeyboardEvent } from "react";

import { Button } from "../ui/button";
import { Modal } from "../ui/dialog";
import { SafeLink } from "../ui/safe-link";
import { safeHttpUrl } from "../url";
import { FallbackImage } from "./fallback-image";
import { FailedMedia } from "./media-image";
import styles from "./media.module.css";

export interface ScreenshotGalleryProps {
  screenshots: readonly string[];
  /** Whose screenshots, for alt texts such as "Screenshot 2 of 5 of Aurora Theme". */
  itemName: string;
}

export function ScreenshotGallery({ screenshots, itemName }: ScreenshotGalleryProps) {
  const urls = screenshots.map((value) => safeHttpUrl(value)).filter((url): url is string => url !== null);
  const [openIndex, setOpenIndex] = useState<number | null>(null);

  if (urls.length === 0) return <p className={styles.unavailable}>No screenshots.</p>;

  const altFor = (index: number) => `Screenshot ${index + 1} of ${urls.length} of ${itemName}`;
  const current = openIndex === null ? undefined : urls[openIndex];
  const step = (delta: number) =>
    setOpenIndex((index) => (index === null ? null : (index + delta + urls.length) % urls.length));
  const onKeyDown = (event: KeyboardEvent<HTMLDialogElement>) => {
    if (event.key === "ArrowRight") step(1);
    else if (event.key === "ArrowLeft") step(-1);
  };

  return (
    <>
      <ul className={styles.gallery}>
        {urls.map((url, index) => (
          <li key={`${index}-${url}`}>
            <button type="button" className={styles.thumbButton} onClick={() => setOpenIndex(index)}>
              <FallbackImage
                src={url}
                alt={altFor(index)}
                loading="lazy"
                decoding="async"
                className={styles.thumb}
                fallback={<FailedMedia alt={altFor(index)} className={styles.thumb} />}
              />
            </button>
          </li>
        ))}
      </ul>
      <Modal
        open={current !== undefined}
        onClose={() => setOpenIndex(null)}
        size="lg"
        onKeyDown={onKeyDown}
        title={openIndex === null ? "Screenshot" : `Screenshot ${openIndex + 1} of ${urls.length}`}
        footer={
          urls.length > 1 ? (
            <>
              <Button variant="secondary" onClick={() => step(-1)}>
                <span aria-hidden="true">‹ </span>Previous
              </Button>
              <Button variant="secondary" onClick={() => step(1)}>
                Next<span aria-hidden="true"> ›</span>
              </Button>
            </>
          ) : undefined
        }
      >
        {current !== undefined && openIndex !== null ? (
          <div className={styles.lightbox}>
            <FallbackImage
              key={current}
              src={current}
              alt={altFor(openIndex)}
              className={styles.lightboxImage}
              fallback={<FailedMedia alt={altFor(openIndex)} className={styles.lightboxFailed} />}
            />
            <p className={styles.caption}>
              {urls.length > 1 ? "Use the arrow keys or the buttons to move between screenshots. " : null}
              <SafeLink href={current}>Open full size</SafeLink>
            </p>
          </div>
        ) : null}
      </Modal>
    </>
  );
}
