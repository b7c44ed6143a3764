/** A placeholder in the shape of a page while its server data loads: a heading and cards. */
export function PageLoading({ label, cards = 3 }: { label: string; cards?: number }) {
  return (
    <div className="stack" role="status" aria-live="polite">
      <span className="visually-hidden">{label}</span>
      <div className="skeleton" style={{ width: "14rem", height: "1.8rem" }} />
      {Array.from({ length: cards }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: static placeholders
        <div key={i} className="skeleton" style={{ height: "7rem" }} />
      ))}
    </div>
  );
}
