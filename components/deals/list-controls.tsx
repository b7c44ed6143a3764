"use client";

import { useEffect, useId, useState } from "react";
import { dealLabel, platformLabel, platforms } from "./format";
import { type DealFilters, isFiltered, noFilters } from "./use-deal-list";

const statuses = ["unfunded", "open", "active", "completed", "cancelled", "expired"];

// Search, status, platform and order of a deal list; every field labelled. The search box
// waits for a pause in typing before it asks the server.
export function DealListControls({
  value,
  onChange,
  viewer,
  showStatus = true,
}: {
  value: DealFilters;
  onChange(next: DealFilters): void;
  viewer: "brand" | "creator";
  showStatus?: boolean;
}) {
  const id = useId();
  const [search, setSearch] = useState(value.search);
  useEffect(() => {
    if (search === value.search) return;
    const timer = window.setTimeout(() => onChange({ ...value, search }), 300);
    return () => window.clearTimeout(timer);
  }, [search, value, onChange]);

  return (
    <search className="filters" aria-label="Filter deals">
      <label htmlFor={`${id}-search`} className="filters-search">
        Search
        <input
          id={`${id}-search`}
          type="search"
          placeholder="Title or description"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
        />
      </label>
      {showStatus && (
        <label htmlFor={`${id}-status`}>
          Status
          <select
            id={`${id}-status`}
            value={value.status}
            onChange={(e) => onChange({ ...value, status: e.target.value })}
          >
            <option value="">Any status</option>
            {statuses.map((s) => (
              <option key={s} value={s}>
                {dealLabel(s, viewer)}
              </option>
            ))}
          </select>
        </label>
      )}
      <label htmlFor={`${id}-platform`}>
        Platform
        <select
          id={`${id}-platform`}
          value={value.platform}
          onChange={(e) => onChange({ ...value, platform: e.target.value })}
        >
          <option value="">Any platform</option>
          {platforms.map((p) => (
            <option key={p} value={p}>
              {platformLabel(p)}
            </option>
          ))}
        </select>
      </label>
      <label htmlFor={`${id}-sort`}>
        Order
        <select
          id={`${id}-sort`}
          value={value.sort}
          onChange={(e) => onChange({ ...value, sort: e.target.value as DealFilters["sort"] })}
        >
          <option value="newest">Newest first</option>
          <option value="oldest">Oldest first</option>
          <option value="budget">Largest budget first</option>
        </select>
      </label>
      {isFiltered(value) && (
        <button
          type="button"
          className="btn small ghost fit-end"
          onClick={() => {
            setSearch("");
            onChange(noFilters);
          }}
        >
          Clear filters
        </button>
      )}
    </search>
  );
}

/** "Load more" under a list with a next page; announces how many are shown. */
export function LoadMore({
  shown,
  hasMore,
  loading,
  onMore,
}: {
  shown: number;
  hasMore: boolean;
  loading: boolean;
  onMore(): void;
}) {
  if (!hasMore) return null;
  return (
    <div className="row center">
      <span className="muted small" aria-live="polite">
        Showing {shown}
      </span>
      <button type="button" className="btn secondary" onClick={onMore} disabled={loading}>
        {loading ? "Loading…" : "Load more deals"}
      </button>
    </div>
  );
}
