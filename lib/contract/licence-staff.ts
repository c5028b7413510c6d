// Licence activations as support staff and admins see them (issue 34): Admin → Licences' state (every item of the
// seller with its policy, the published public keys and where they are published). The schemas of the public
// licence API, the policies and the activations are in ./licences.ts.
import { z } from "zod";

import { LicencePolicySchema, LicenceSigningKeySchema } from "./licences";

export const LicenceItemSchema = z.object({
  item_id: z.number().int().positive(),
  item_name: z.string().describe("As the item API names it"),
  policy: LicencePolicySchema.describe("Its saved policy, or the defaults (off) when none was saved"),
});
export type LicenceItem = z.infer<typeof LicenceItemSchema>;

export const LicencesAdminSchema = z.object({
  items: z.array(LicenceItemSchema).describe("Every item of the seller, as the item API lists them"),
  keys: z.array(LicenceSigningKeySchema).describe("The public keys that verify the licence API's answers"),
  keys_path: z.string().describe("Where the keys are published, on this site"),
  keys_url: z
    .string()
    .nullable()
    .describe("The same as an absolute URL, when Gatehouse knows its public origin (PUBLIC_ORIGIN or an allowed Host)"),
});
export type LicencesAdmin = z.infer<typeof LicencesAdminSchema>;
