// The floor's own (empty) settings: without this file Next.js would take the portal's next.config.mjs from the
// folder above (its headers, its server packages), and the floor would no longer be bare.
const settings = {};

export default settings;
