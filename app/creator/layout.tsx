import type { ReactNode } from "react";
import { QueryProvider } from "@/components/query-provider";

// The dashboard's lists are TanStack Query caches (mounted here, not for every page).
export default function DashboardLayout({ children }: { children: ReactNode }) {
  return <QueryProvider>{children}</QueryProvider>;
}
