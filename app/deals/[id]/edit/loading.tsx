import { PageLoading } from "@/components/page-skeleton";

export default function Loading() {
  return <PageLoading label="Loading the deal" cards={2} />;
}
