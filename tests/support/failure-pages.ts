// The server-rendered pages that read an upstream, with the failure card each shows when that upstream does not
// answer in time: the HTTP test (tests/http/pages/failures.test.ts) and the browser test
// (tests/e2e/upstream-timeout.spec.ts) check the same table.
export const PAGES_AFTER_A_TIMEOUT: ReadonlyArray<[path: string, title: string, message: string]> = [
  ["/reports", "The reports could not be loaded", "The reports service did not answer in time."],
  ["/projects", "The projects could not be loaded", "The reports service did not answer in time."],
  ["/reports/3", "The report could not be loaded", "The reports service did not answer in time."],
  ["/items", "The items could not be loaded", "The item service did not answer in time."],
  ["/items/1", "The item could not be loaded", "The item service did not answer in time."],
  ["/account", "The seller account could not be loaded", "The item service did not answer in time."],
];
