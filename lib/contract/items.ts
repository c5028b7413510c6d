// Area B's seller account and items as the portal API shows them.
import { z } from "zod";

import { isoTimestamp, positiveIdParam } from "./common";

export const AccountSchema = z.object({
  name: z.object({ firstname: z.string(), lastname: z.string(), full_name: z.string() }),
  username: z.string(),
  email: z.string(),
  balance: z
    .number()
    .optional()
    .describe(
      "The seller's balance; omitted without finances:read (the support role, or an API token without that scope)",
    ),
  currency: z.string().optional().describe("The balance's currency; omitted with it"),
  profile: z.object({
    heading: z.string().nullable(),
    description: z.string().nullable(),
    contact: z.object({ email: z.string().nullable() }),
    social_links: z.record(z.string(), z.string()).describe("Network name → link"),
    media: z.object({ avatar: z.string().nullable(), cover: z.string().nullable() }),
  }),
  registered_at: isoTimestamp,
});
export type Account = z.infer<typeof AccountSchema>;

export const ItemSchema = z.object({
  id: z.number().int().positive(),
  name: z.string(),
  description: z.string().nullable(),
  category: z.string(),
  sub_category: z.string().nullable(),
  options: z.array(z.string()),
  version: z.string().describe("The item's own version (x.y.z), unrelated to the API's"),
  demo_link: z.string().nullable(),
  tags: z.array(z.string()),
  media: z.object({
    thumbnail: z.string().nullable(),
    preview_image: z.string().optional().describe("Omitted for audio items"),
    preview_video: z.string().optional().describe("Present only for video items"),
    preview_audio: z.string().optional().describe("Present only for audio items"),
    screenshots: z.array(z.string()),
  }),
  price: z.object({ regular: z.number(), extended: z.number() }),
  currency: z.string(),
  published_at: isoTimestamp,
});
export type Item = z.infer<typeof ItemSchema>;

export const ItemIdParamsSchema = z.object({ id: positiveIdParam.check(z.describe("Item id")) });
