// <video controls> and <audio controls> with a caption, for item previews. Only http(s) sources are used;
// otherwise the caption says the preview is not available. preload="metadata" so a page of items does not
// download every clip. Server-renderable.
import { safeHttpUrl } from "../url";
import styles from "./media.module.css";

export interface VideoPlayerProps {
  src: string | null | undefined;
  /** What the clip is, e.g. "Video preview of Aurora Theme". */
  caption: string;
  /** A still shown before playing (e.g. the item's preview image). */
  poster?: string | null;
  /** A WebVTT captions file, when the upstream has one. */
  captionsSrc?: string | null;
  captionsLanguage?: string;
}

export function VideoPlayer({ src, caption, poster, captionsSrc, captionsLanguage = "en" }: VideoPlayerProps) {
  const url = safeHttpUrl(src);
  const captionsUrl = safeHttpUrl(captionsSrc);
  return (
    <figure className={styles.figure}>
      {url ? (
        <video className={styles.video} controls preload="metadata" poster={safeHttpUrl(poster) ?? undefined} src={url}>
          {captionsUrl ? (
            <track kind="captions" src={captionsUrl} srcLang={captionsLanguage} label="Captions" default />
          ) : null}
          Your browser cannot play this video. <a href={url}>Download it</a>.
        </video>
      ) : (
        <p className={styles.unavailable}>The video preview is not available.</p>
      )}
      <figcaption className={styles.caption}>{caption}</figcaption>
    </figure>
  );
}

export interface AudioPlayerProps {
  src: string | null | undefined;
  /** What the clip is, e.g. "Audio preview of Morning Loop". */
  caption: string;
}

export function AudioPlayer({ src, caption }: AudioPlayerProps) {
  const url = safeHttpUrl(src);
  return (
    <figure className={styles.figure}>
      {url ? (
        <audio className={styles.audio} controls preload="metadata" src={url}>
          Your browser cannot play this audio. <a href={url}>Download it</a>.
        </audio>
      ) : (
        <p className={styles.unavailable}>The audio preview is not available.</p>
      )}
      <figcaption className={styles.caption}>{caption}</figcaption>
    </figure>
  );
}
