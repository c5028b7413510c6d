// The floor's own (empty) start-up hook: without it the build takes the portal's instrumentation.ts from the
// repository's root, Turbopack's root.
export function register() {}
