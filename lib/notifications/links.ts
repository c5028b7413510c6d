// A message's link as each sender puts it: absolute with PUBLIC_ORIGIN ("https://portal.example.com/reports/12"),
// or the path as it is when PUBLIC_ORIGIN is not set (the channels page says so: a chat cannot open a path).
export function absoluteLink(path: string, publicOrigin: string | null): string {
  if (!publicOrigin) return path;
  return new URL(path, publicOrigin.endsWith("/") ? publicOrigin : `${publicOrigin}/`).href;
}

/** Whether a link can be opened by whoever gets it (an absolute http(s) URL). */
export function isOpenable(link: string): boolean {
  return /^https?:\/\//.test(link);
}
