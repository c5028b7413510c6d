// The embedded sandbox: a stand-in for both upstream APIs (area A "reports" under /seo, area B "items" under
// /market), served by plain node:http. Imported by tests, by the CLI and possibly by Next's server in demo
// mode, so this module has no top-level side effects and no `server-only` import.

export * from "./contract";
export { startSandbox } from "./server";
