// The rules are computed from FLOORS in scripts/architecture.ts, the one list of the rooms and their floors; tsx
// loads that TypeScript here, since the depcruise command line reads this file with plain Node.
import { require as requireTypeScript } from "tsx/cjs/api";

export default requireTypeScript("./scripts/architecture.ts", import.meta.url).dependencyCruiserConfig;
