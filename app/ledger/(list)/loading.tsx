import { PageLoading } from "@/components/page-skeleton";

// In the (list) route group so that it wraps /ledger only: a loading boundary above
// /ledger/receipts/[id] would start that page's answer (200) before its notFound() ran.
export default function Loading() {
  return <PageLoading label="Loading your payments" cards={2} />;
}
