import type { Config } from "@react-router/dev/config";

// CMS_BUILD_DIR lets two checkouts' test runs build side by side without overwriting each other.
export default { ssr: true, buildDirectory: process.env.CMS_BUILD_DIR ?? "build" } satisfies Config;
