/** Placeholder cards while a list loads; `label` is announced and shown. */
export function ListSkeleton({ label, count = 3 }: { label: string; count?: number }) {
  return (
    <div className="stack" role="status" aria-live="polite">
      <span className="muted small">{label}</span>
      {Array.from({ length: count }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: static placeholders
        <div key={i} className="skeleton" style={{ height: "7rem" }} />
      ))}
    </div>
  );
}
