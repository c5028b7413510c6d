// Deterministic demo data for both areas. Everything comes from a seeded PRNG and a fixed anchor date, so
// every start (and every `--reset`) produces byte-identical data: tests and docs can name ids and codes.
import { FIXED_PURCHASE_CODES, SANDBOX_KEYS, type SellerProfile } from "./contract";

/** The seed's "today": reports were generated during the 90 days before it. */
export const SEED_ANCHOR = Date.parse("2026-11-01T00:00:00Z");
const DAY = 86_400_000;

/** The main seller's item count unless `mainSellerItems` says otherwise. */
export const DEFAULT_MAIN_SELLER_ITEMS = 30;

// ---------------------------------------------------------------------------------------------------------
// Records

export type ReportResult = "good" | "decent" | "bad";
export type Privacy = 0 | 1 | 2;

export interface ReportRecord {
  id: number;
  url: string;
  project: string;
  result: ReportResult;
  generated_at: string;
  privacy: Privacy;
  password: string | null; // kept only while privacy is 2; never returned by the API
  revision: number; // how many times `results=1` regenerated it; feeds the derived result
  created_at: string;
  updated_at: string;
}

export interface ProjectRecord {
  project: string;
  created_at: string;
}

export interface ReportsData {
  nextReportId: number;
  reports: ReportRecord[];
  projects: ProjectRecord[];
}

export interface Account {
  name: { firstname: string; lastname: string; full_name: string };
  username: string;
  email: string;
  balance: number;
  currency: string;
  profile: {
    heading: string;
    description: string;
    contact: { email: string };
    social_links: Record<string, string>;
    media: { avatar: string; cover: string };
  };
  registered_at: string;
}

export type ItemKind = "script" | "video" | "audio";

export interface Item {
  id: number;
  name: string;
  description: string;
  category: string;
  sub_category: string;
  options: string[];
  version: string;
  demo_link: string;
  tags: string[];
  media: {
    thumbnail: string;
    preview_image?: string; // omitted for audio items
    preview_video?: string; // video items only
    preview_audio?: string; // audio items only
    screenshots: string[];
  };
  price: { regular: number; extended: number };
  currency: string;
  published_at: string;
}

export interface Purchase {
  purchase_code: string;
  license_type: "Regular License" | "Extended License";
  price: number;
  currency: string;
  item: { id: number; name: string; url: string; media: { preview_image: string } };
  supported_until?: string; // omitted when the purchase has no support
  downloaded: boolean;
  date: string;
}

export interface Seller {
  account: Account;
  items: Item[];
  /** Sales of this seller's items, by purchase code. */
  purchases: Map<string, Purchase>;
}

export type Sellers = Record<SellerProfile, Seller>;

// ---------------------------------------------------------------------------------------------------------
// PRNG

/** mulberry32 over a string seed: small, fast, and the same sequence on every platform. */
export function prng(seed: string): () => number {
  let state = hashString(seed);
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** FNV-1a, 32 bits. Also used to derive a report's result from its URL. */
export function hashString(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

function pick<T>(random: () => number, list: readonly T[]): T {
  const value = list[Math.floor(random() * list.length)];
  if (value === undefined) throw new Error("pick from an empty list");
  return value;
}

function int(random: () => number, min: number, max: number): number {
  return min + Math.floor(random() * (max - min + 1));
}

/** Timestamps are whole seconds, as a database column keeps them. */
export function isoSeconds(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(".000Z", "Z");
}

const RESULTS: readonly ReportResult[] = ["good", "decent", "bad"];

/** The report result: a pure function of the URL and how often it was regenerated. */
export function deriveResult(url: string, revision: number): ReportResult {
  return RESULTS[hashString(`${url}#${revision}`) % 3] ?? "decent";
}

// ---------------------------------------------------------------------------------------------------------
// Area A: projects and reports

interface SeedSite {
  project: string;
  /** URLs of this project's reports live on this origin. */
  origin: string;
  paths: readonly string[];
}

// Most projects are named after their host, as the API names them. "my shop" was named in the upstream's own
// UI (it holds pages of a shop on another host); café-münchen.de is an IDN host shown in Unicode.
const SEED_SITES: readonly SeedSite[] = [
  {
    project: "northwind-coffee.com",
    origin: "https://northwind-coffee.com",
    paths: ["/", "/shop", "/shop/espresso-blend", "/shop/cold-brew-kit", "/about", "/blog/how-we-roast", "/wholesale"],
  },
  {
    project: "acme-tools.io",
    origin: "https://acme-tools.io",
    paths: ["/", "/pricing", "/docs", "/docs/getting-started", "/changelog", "/integrations/slack"],
  },
  {
    project: "blog.fernweh-reisen.de",
    origin: "https://blog.fernweh-reisen.de",
    paths: ["/", "/island-hopping-greece", "/norway-by-train", "/packing-list", "/about-us"],
  },
  {
    project: "shop.lumen-lighting.co.uk",
    origin: "https://shop.lumen-lighting.co.uk",
    paths: ["/", "/pendant-lights", "/floor-lamps", "/checkout", "/delivery"],
  },
  {
    project: "docs.orbitstack.dev",
    origin: "https://docs.orbitstack.dev",
    paths: ["/", "/quickstart", "/reference/api", "/guides/deploy", "/faq"],
  },
  {
    project: "greenleaf-market.com",
    origin: "https://greenleaf-market.com",
    paths: ["/", "/weekly-box", "/recipes", "/recipes/summer-salad", "/stores"],
  },
  {
    project: "pixelforge.studio",
    origin: "https://pixelforge.studio",
    paths: ["/", "/work", "/work/brand-refresh", "/services", "/contact"],
  },
  {
    project: "atlas-legal.fr",
    origin: "https://www.atlas-legal.fr",
    paths: ["/", "/expertises", "/equipe", "/actualites", "/contact"],
  },
  {
    project: "bluefin-sailing.org",
    origin: "https://bluefin-sailing.org",
    paths: ["/", "/courses", "/courses/day-skipper", "/fleet", "/join"],
  },
  {
    project: "kestrel-analytics.com",
    origin: "https://kestrel-analytics.com",
    paths: ["/", "/product", "/customers", "/blog/attribution-101", "/careers"],
  },
  {
    project: "café-münchen.de",
    origin: "https://café-münchen.de",
    paths: ["/", "/speisekarte", "/reservierung", "/galerie"],
  },
  {
    project: "my shop",
    origin: "https://handmade-by-lena.com",
    paths: ["/", "/collections/ceramics", "/products/blue-mug", "/products/oak-board", "/cart"],
  },
  { project: "harbor-dental.com", origin: "http://harbor-dental.com", paths: ["/", "/team", "/appointments"] },
];

const SEED_REPORTS = 160;
const SEED_PASSWORDS = ["sesame", "preview-2026", "client-only", "tulip"];

export function seedReports(): ReportsData {
  const random = prng("gatehouse-sandbox/reports");
  const window = 90 * DAY;

  // Creation times spread over the 90 days, ascending, so that ids follow the date created.
  const createdTimes = Array.from(
    { length: SEED_REPORTS },
    () => SEED_ANCHOR - window + Math.floor(random() * (window - DAY)),
  ).sort((a, b) => a - b);

  const projectCreated = new Map<string, number>();
  const reports: ReportRecord[] = createdTimes.map((created, index) => {
    const site = SEED_SITES[index % SEED_SITES.length]!;
    const url =
      site.origin + pick(random, site.paths) + (random() < 0.15 ? `?utm_source=newsletter&v=${int(random, 1, 9)}` : "");
    // Every fifth report was regenerated some days later; the others were generated right after creation.
    const regenerated = random() < 0.2;
    const revision = regenerated ? int(random, 1, 3) : 0;
    const generated = regenerated
      ? Math.min(SEED_ANCHOR - 60_000, created + int(random, 1, 20) * DAY)
      : created + int(random, 5, 90) * 1000;
    // Cycle through the privacy values so that every one is present whatever the PRNG says.
    const privacy = (index % 7 === 3 ? 2 : index % 5 === 1 ? 1 : 0) as Privacy;
    if (!projectCreated.has(site.project)) projectCreated.set(site.project, created - int(random, 60, 3600) * 1000);
    return {
      id: index + 1,
      url,
      project: site.project,
      result: deriveResult(url, revision),
      generated_at: isoSeconds(generated),
      privacy,
      password: privacy === 2 ? pick(random, SEED_PASSWORDS) : null,
      revision,
      created_at: isoSeconds(created),
      updated_at: isoSeconds(generated),
    };
  });

  // The derived results must cover all three values; the fixed seed does, and this guards later edits.
  for (const result of RESULTS) {
    if (!reports.some((report) => report.result === result)) throw new Error(`seed has no "${result}" report`);
  }

  const projects = [...projectCreated].map(([project, created]) => ({ project, created_at: isoSeconds(created) }));
  return { nextReportId: reports.length + 1, reports, projects };
}

// ---------------------------------------------------------------------------------------------------------
// Area B: sellers, items, purchases

const CDN = "https://cdn.example.com/market";
const MARKET = "https://market.example.com";

interface KindCatalogue {
  category: string;
  subCategories: readonly string[];
  names: readonly string[];
  nouns: readonly string[];
  options: readonly string[];
  tags: readonly string[];
  price: [number, number];
}

const CATALOGUE: Record<ItemKind, KindCatalogue> = {
  script: {
    category: "Scripts",
    subCategories: ["PHP Scripts", "JavaScript", "WordPress Plugins", "Laravel"],
    names: [
      "InvoiceFlow – Invoicing & Billing",
      "Quillpad – Markdown Notes App",
      "TicketDesk – Helpdesk System",
      "Bookly Lite – Appointment Booking",
      "ShortLinker – URL Shortener",
      "Formcraft – Drag & Drop Form Builder",
      "Stocktake – Inventory Manager",
      "ChatNest – Live Chat Widget",
      "PollPro – Surveys and Polls",
      "Rosterly – Staff Scheduling",
      "Mailstack – Newsletter Manager",
      "Cartwheel – Lightweight Shop",
    ],
    nouns: [
      "Dashboard",
      "CRM",
      "Booking System",
      "Link Manager",
      "Form Builder",
      "Helpdesk",
      "Kanban Board",
      "Blog Engine",
    ],
    options: ["Responsive", "Documentation included", "REST API", "Multi-language", "Dark mode", "Installer wizard"],
    tags: ["php", "laravel", "javascript", "admin", "saas", "crm", "booking", "api", "mysql", "vue"],
    price: [19, 69],
  },
  video: {
    category: "Video",
    subCategories: ["After Effects Templates", "Stock Footage", "Premiere Pro Templates", "Motion Graphics"],
    names: [
      "Neon Glitch Logo Reveal",
      "Clean Corporate Slideshow",
      "Drone Over Fjords 4K",
      "Minimal Typography Titles",
      "Liquid Transitions Pack",
      "City Timelapse at Dusk 4K",
      "Broadcast News Package",
      "Retro VHS Intro",
    ],
    nouns: ["Logo Reveal", "Slideshow", "Titles Pack", "Transitions", "Lower Thirds", "Promo", "Intro"],
    options: ["4K resolution", "No plugins required", "Color controls", "Music not included", "Full HD version"],
    tags: ["logo", "intro", "slideshow", "corporate", "4k", "cinematic", "transitions", "titles", "promo"],
    price: [12, 49],
  },
  audio: {
    category: "Audio",
    subCategories: ["Music", "Sound Effects", "Music Packs", "Logos & Idents"],
    names: [
      "Uplifting Corporate Inspiration",
      "Cinematic Epic Trailer",
      "Lo-Fi Chill Beat",
      "Whoosh Transitions Pack",
      "Acoustic Happy Ukulele",
      "UI Clicks and Beeps",
      "Ambient Piano Dreams",
      "Energetic Rock Sport",
    ],
    nouns: ["Background Music", "Trailer", "Beat", "Sound Pack", "Logo Sting", "Ambient Loop"],
    options: ["WAV + MP3", "Loop version", "Short edits included", "48 kHz / 24 bit"],
    tags: ["corporate", "uplifting", "cinematic", "ambient", "lofi", "sfx", "piano", "rock", "background"],
    price: [5, 29],
  },
};

const ADJECTIVES = ["Modern", "Smart", "Bright", "Simple", "Rapid", "Pure", "Bold", "Calm", "Prime", "Vivid"];
// Every fifth item is audio and every third video, so any count of at least 3 mixes all three kinds.
function kindOf(index: number): ItemKind {
  return index % 5 === 4 ? "audio" : index % 3 === 1 ? "video" : "script";
}

function slugify(text: string): string {
  return text
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
}

/** Item `index` of a seller: its own PRNG stream, so the first N items are the same whatever the count. */
function makeItem(seller: string, firstId: number, index: number): Item {
  const random = prng(`gatehouse-sandbox/items/${seller}/${index}`);
  const kind = kindOf(index);
  const catalogue = CATALOGUE[kind];
  const round = Math.floor(index / catalogue.names.length);
  const curated = catalogue.names[index % catalogue.names.length] ?? "Item";
  const name = round === 0 ? curated : `${pick(random, ADJECTIVES)} ${pick(random, catalogue.nouns)} ${index + 1}`;
  const id = firstId + index;
  const slug = slugify(name);
  const regular = int(random, catalogue.price[0], catalogue.price[1]);
  const screenshots = Array.from(
    { length: kind === "audio" ? 1 : int(random, 2, 4) },
    (_, n) => `${CDN}/${id}/screenshot-${n + 1}.jpg`,
  );
  // The document's media rules per kind: audio has no preview_image; only video has preview_video.
  const media: Item["media"] = {
    thumbnail: `${CDN}/${id}/thumbnail.png`,
    ...(kind !== "audio" && { preview_image: `${CDN}/${id}/preview.jpg` }),
    ...(kind === "video" && { preview_video: `${CDN}/${id}/preview.mp4` }),
    ...(kind === "audio" && { preview_audio: `${CDN}/${id}/preview.mp3` }),
    screenshots,
  };
  const tags = [...new Set([pick(random, catalogue.tags), pick(random, catalogue.tags), pick(random, catalogue.tags)])];
  return {
    id,
    name,
    description: `${name}: ${pick(random, ["easy to customise", "built for busy teams", "ready in minutes", "crafted with care"])}. ${pick(random, ["Free updates.", "Detailed documentation.", "Friendly support.", "Used by thousands of customers."])}`,
    category: catalogue.category,
    sub_category: pick(random, catalogue.subCategories),
    options: [...new Set([pick(random, catalogue.options), pick(random, catalogue.options)])],
    version: `${int(random, 1, 4)}.${int(random, 0, 12)}.${int(random, 0, 9)}`,
    demo_link: `${MARKET}/item/${slug}/${id}/preview`,
    tags,
    media,
    price: { regular, extended: regular * (kind === "script" ? 25 : 10) },
    currency: "USD",
    published_at: isoSeconds(SEED_ANCHOR - (index + 1) * 9 * DAY - int(random, 0, 86_399) * 1000),
  };
}

function itemUrl(item: Item): string {
  return `${MARKET}/item/${slugify(item.name)}/${item.id}`;
}

function uuid(random: () => number): string {
  const hex = Array.from({ length: 32 }, () => Math.floor(random() * 16).toString(16));
  hex[12] = "4";
  hex[16] = "89ab"[Math.floor(random() * 4)] ?? "8";
  const s = hex.join("");
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
}

type Support = "active" | "expired" | "none";

function makePurchase(
  code: string,
  item: Item,
  random: () => number,
  opts: { support: Support; extended: boolean; downloaded: boolean },
): Purchase {
  const bought = SEED_ANCHOR - int(random, 20, 700) * DAY - int(random, 0, 86_399) * 1000;
  const purchase: Purchase = {
    purchase_code: code,
    license_type: opts.extended ? "Extended License" : "Regular License",
    price: opts.extended ? item.price.extended : item.price.regular,
    currency: item.currency,
    // Purchases always carry a preview image; an audio item has none of its own, so its thumbnail stands in.
    item: {
      id: item.id,
      name: item.name,
      url: itemUrl(item),
      media: { preview_image: item.media.preview_image ?? item.media.thumbnail },
    },
    // Active support runs well past the anchor (as if renewed) so that it stays active for years of demos.
    ...(opts.support === "active" && {
      supported_until: isoSeconds(Date.parse("2031-01-01T00:00:00Z") + int(random, 0, 364) * DAY),
    }),
    ...(opts.support === "expired" && {
      supported_until: isoSeconds(Math.min(bought + 182 * DAY, SEED_ANCHOR - 5 * DAY)),
    }),
    downloaded: opts.downloaded,
    date: isoSeconds(bought),
  };
  return purchase;
}

function makeSales(
  seller: string,
  items: Item[],
  count: number,
  fixed: { code: string; support: Support }[],
  /** Fixed codes added after the random ones, so that adding one leaves every other purchase as it was. */
  after: { code: string; support: Support }[] = [],
): Map<string, Purchase> {
  const random = prng(`gatehouse-sandbox/purchases/${seller}`);
  const sales = new Map<string, Purchase>();
  const supports: Support[] = ["active", "expired", "none"];
  fixed.forEach(({ code, support }, n) => {
    const item = items[n % items.length]!;
    sales.set(code, makePurchase(code, item, random, { support, extended: false, downloaded: true }));
  });
  for (let n = 0; sales.size < count; n++) {
    // Purchases point at the first 30 items, so that asking for more items leaves the sales as they are.
    const item = items[n % Math.min(items.length, DEFAULT_MAIN_SELLER_ITEMS)]!;
    const code = uuid(random);
    sales.set(
      code,
      makePurchase(code, item, random, { support: supports[n % 3]!, extended: n % 4 === 1, downloaded: n % 2 === 0 }),
    );
  }
  after.forEach(({ code, support }, n) => {
    sales.set(
      code,
      makePurchase(code, items[n % items.length]!, random, { support, extended: false, downloaded: true }),
    );
  });
  return sales;
}

function account(fields: {
  first: string;
  last: string;
  username: string;
  balance: number;
  heading: string;
  description: string;
  registered: string;
  social: Record<string, string>;
}): Account {
  const email = `${fields.username}@mail.example.com`;
  return {
    name: { firstname: fields.first, lastname: fields.last, full_name: `${fields.first} ${fields.last}` },
    username: fields.username,
    email,
    balance: fields.balance,
    currency: "USD",
    profile: {
      heading: fields.heading,
      description: fields.description,
      contact: { email: `hello@${fields.username}.example.com` },
      social_links: fields.social,
      media: {
        avatar: `${CDN}/authors/${fields.username}/avatar.png`,
        cover: `${CDN}/authors/${fields.username}/cover.jpg`,
      },
    },
    registered_at: fields.registered,
  };
}

export function seedSellers(mainSellerItems = DEFAULT_MAIN_SELLER_ITEMS): Sellers {
  const mainItems = Array.from({ length: mainSellerItems }, (_, i) => makeItem("main", 100_001, i));
  const secondItems = Array.from({ length: 9 }, (_, i) => makeItem("second", 200_001, i));
  return {
    main: {
      account: account({
        first: "Lena",
        last: "Hoffmann",
        username: "bytebrush",
        balance: 1843.27,
        heading: "Scripts, motion and music made in Leipzig",
        description: "Small studio building PHP scripts, After Effects templates and royalty-free music since 2017.",
        registered: "2017-03-14T09:26:41Z",
        social: {
          twitter: "https://twitter.com/bytebrush",
          github: "https://github.com/bytebrush",
          youtube: "https://www.youtube.com/@bytebrush",
        },
      }),
      items: mainItems,
      purchases: makeSales(
        "main",
        mainItems,
        36,
        [
          { code: FIXED_PURCHASE_CODES.active, support: "active" },
          { code: FIXED_PURCHASE_CODES.expired, support: "expired" },
          { code: FIXED_PURCHASE_CODES.none, support: "none" },
        ],
        [{ code: FIXED_PURCHASE_CODES.letters, support: "active" }],
      ),
    },
    second: {
      account: account({
        first: "Tomás",
        last: "Ruiz",
        username: "ruizmotion",
        balance: 412.5,
        heading: "Motion design for brands",
        description: "Video templates and a few handy scripts from Valencia.",
        registered: "2019-09-02T17:03:12Z",
        social: { instagram: "https://instagram.com/ruizmotion", behance: "https://www.behance.net/ruizmotion" },
      }),
      items: secondItems,
      purchases: makeSales("second", secondItems, 8, []),
    },
    empty: {
      account: account({
        first: "Ada",
        last: "Nwosu",
        username: "ada-newshop",
        balance: 0,
        heading: "Coming soon",
        description: "A new shop; nothing published yet.",
        registered: "2026-10-20T08:00:00Z",
        social: {},
      }),
      items: [],
      purchases: new Map(),
    },
  };
}

/** Which seller each built-in key belongs to. */
export const BUILT_IN_ITEM_KEYS: Record<string, SellerProfile> = {
  [SANDBOX_KEYS.items]: "main",
  [SANDBOX_KEYS.items2]: "second",
  [SANDBOX_KEYS.itemsEmpty]: "empty",
};
