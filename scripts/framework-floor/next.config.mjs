// The floor's own settings: without this file Next.js would take the portal's next.config.mjs from the folder
// above (its headers, its server packages), and the floor would no longer be bare. The one setting is where the
// build goes, read as the portal reads it, so that NEXT_DIST_DIR keeps side-by-side runs apart here too and
// buildReason (lib/cli/build-check.ts) looks where the build is.
const settings = { distDir: process.env.NEXT_DIST_DIR || ".next" };

export default settings;
