/** @type {import('next').NextConfig} */
const nextConfig = {
  // No "X-Powered-By: Next.js": nothing to gain from advertising the stack.
  poweredByHeader: false,
  reactStrictMode: true,
};

export default nextConfig;
