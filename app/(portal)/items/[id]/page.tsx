// /items/{id}: everything the item service tells about one item, with its media by kind: a video player for
// video items, an audio player for audio items, the preview image otherwise, and the screenshots.
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";

import { MediaImage } from "@/components/media/media-image";
import { AudioPlayer, VideoPlayer } from "@/components/media/media-player";
import { ScreenshotGallery } from "@/components/media/screenshot-gallery";
import { AreaNotConfigured } from "@/components/portal/area-not-configured";
import { FailureState } from "@/components/portal/failure-state";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { DescriptionList } from "@/components/ui/description-list";
import { LocalTime } from "@/components/ui/local-time";
import { Money } from "@/components/ui/money";
import { PageHeader } from "@/components/ui/page-header";
import { SafeLink } from "@/components/ui/safe-link";
import type { Item } from "@/lib/contract/items";
import { requirePageUser } from "@/lib/auth/current-user";
import { loadFromUpstream } from "@/lib/portal/failures";
import { getUpstreams } from "@/lib/upstream";

import styles from "../items.module.css";

export const metadata: Metadata = { title: "Item" };

export default async function ItemPage({ params }: { params: Promise<{ id: string }> }) {
  await requirePageUser("items:read");
  const { id: idParam } = await params;
  if (!/^[1-9]\d{0,14}$/.test(idParam)) notFound();

  const { items } = await getUpstreams();
  if (!items) return <AreaNotConfigured area="items" />;

  const loaded = await loadFromUpstream("The item", () => items.getItem(Number(idParam)));
  if (!loaded.ok && loaded.error.kind === "not_found") notFound();
  if (!loaded.ok) {
    return (
      <>
        <PageHeader title="Item" back={<Link href="/items">‹ Items</Link>} />
        <FailureState failure={loaded.failure} />
      </>
    );
  }
  const item = loaded.value;
  return (
    <>
      <PageHeader
        title={item.name}
        description={item.sub_category ? `${item.category} › ${item.sub_category}` : item.category}
        back={<Link href="/items">‹ Items</Link>}
      />
      <div className={styles.detail}>
        <div className={styles.column}>
          <Card title="Preview" asSection>
            <Preview item={item} />
          </Card>
          <Card title="Description" asSection>
            <Description text={item.description} />
          </Card>
          <Card title="Screenshots" asSection>
            <ScreenshotGallery screenshots={item.media.screenshots} itemName={item.name} />
          </Card>
        </div>
        <div className={styles.column}>
          <Card title="Details" asSection>
            <DescriptionList
              items={[
                {
                  term: "Regular licence",
                  description: <Money amount={item.price.regular} currency={item.currency} />,
                },
                {
                  term: "Extended licence",
                  description: <Money amount={item.price.extended} currency={item.currency} />,
                },
                { term: "Category", description: item.category },
                { term: "Sub-category", description: item.sub_category ?? "None" },
                { term: "Version", description: item.version },
                { term: "Published", description: <LocalTime iso={item.published_at} display="both" /> },
                {
                  term: "Demo",
                  description: (
                    <SafeLink href={item.demo_link} missing="No demo">
                      Open the demo
                    </SafeLink>
                  ),
                },
                {
                  term: "Thumbnail",
                  description: (
                    <MediaImage
                      src={item.media.thumbnail}
                      alt={`Thumbnail of ${item.name}`}
                      className={styles.smallThumb}
                      width={160}
                      height={90}
                    />
                  ),
                },
                { term: "Item ID", description: <span className="tabular-nums">{item.id}</span> },
              ]}
            />
          </Card>
          <Card title="Tags" asSection>
            {item.tags.length > 0 ? (
              <ul className={styles.tags}>
                {item.tags.map((tag, index) => (
                  <li key={`${index}-${tag}`}>
                    <Badge tone="outline">{tag}</Badge>
                  </li>
                ))}
              </ul>
            ) : (
              <p>No tags.</p>
            )}
          </Card>
          <Card title="Options" asSection>
            {item.options.length > 0 ? (
              <ul className={styles.options}>
                {item.options.map((option, index) => (
                  <li key={`${index}-${option}`}>{option}</li>
                ))}
              </ul>
            ) : (
              <p>No options.</p>
            )}
          </Card>
        </div>
      </div>
    </>
  );
}

function Preview({ item }: { item: Item }) {
  const { media } = item;
  if (media.preview_video) {
    return (
      <VideoPlayer src={media.preview_video} poster={media.preview_image} caption={`Video preview of ${item.name}`} />
    );
  }
  if (media.preview_audio) {
    return (
      <>
        <MediaImage src={media.thumbnail} alt={`Cover of ${item.name}`} className={styles.preview} priority />
        <AudioPlayer src={media.preview_audio} caption={`Audio preview of ${item.name}`} />
      </>
    );
  }
  return <MediaImage src={media.preview_image} alt={`Preview of ${item.name}`} className={styles.preview} priority />;
}

/** Upstream text, shown as paragraphs: React escapes it, and no HTML from it is ever interpreted. */
function Description({ text }: { text: string | null }) {
  const paragraphs = (text ?? "")
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean);
  if (paragraphs.length === 0) return <p>No description.</p>;
  return (
    <div className={styles.description}>
      {paragraphs.map((paragraph, index) => (
        <p key={index}>{paragraph}</p>
      ))}
    </div>
  );
}
