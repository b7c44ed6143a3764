import type { MetadataRoute } from "next";
import { appUrl, env } from "@/lib/env";

// Search engines index the production deployment only: SEARCH_INDEXING is off by default, so a
// preview, a staging copy or a local build answers "Disallow: /" (set it on production alone).
export const dynamic = "force-dynamic";

export default function robots(): MetadataRoute.Robots {
  if (!env().SEARCH_INDEXING) return { rules: { userAgent: "*", disallow: "/" } };
  return {
    rules: { userAgent: "*", allow: "/", disallow: ["/api/", "/dev/", "/auth/"] },
    host: appUrl(),
  };
}
