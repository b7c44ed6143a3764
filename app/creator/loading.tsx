import { PageLoading } from "@/components/page-skeleton";

export default function Loading() {
  return <PageLoading label="Loading your work" />;
}
