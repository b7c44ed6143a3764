"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import { ApiError, apiFetch } from "@/lib/client/api";

// Loading a resource from the API, with reload and (optional) polling. A reload that
// started before a newer one is discarded, so a slow poll cannot undo a fresher answer.

export type Resource<T> = {
  data: T | null;
  error: ApiError | null;
  loading: boolean;
  reload(): Promise<void>;
};

export function useApi<T>(path: string | null): Resource<T> {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [loading, setLoading] = useState(path !== null);
  const generation = useRef(0);

  const reload = useCallback(async () => {
    if (path === null) return;
    const mine = ++generation.current;
    try {
      const next = await apiFetch<T>(path);
      if (mine !== generation.current) return;
      setData(next);
      setError(null);
    } catch (err) {
      if (mine !== generation.current) return;
      setError(err instanceof ApiError ? err : new ApiError("unknown", "Something went wrong.", 0));
    } finally {
      if (mine === generation.current) setLoading(false);
    }
  }, [path]);

  useEffect(() => {
    setLoading(path !== null);
    void reload();
  }, [reload, path]);

  // Coming back to the tab shows what changed meanwhile.
  useEffect(() => {
    const onVisible = () => {
      if (document.visibilityState === "visible") void reload();
    };
    document.addEventListener("visibilitychange", onVisible);
    return () => document.removeEventListener("visibilitychange", onVisible);
  }, [reload]);

  return { data, error, loading, reload };
}

/** Calls `tick` every `ms` while `active` (and the tab is visible); never two at once. */
export function usePolling(active: boolean, tick: () => Promise<void>, ms = 3000) {
  const latest = useRef(tick);
  latest.current = tick;
  useEffect(() => {
    if (!active) return;
    let running = false;
    const id = window.setInterval(async () => {
      if (running || document.visibilityState === "hidden") return;
      running = true;
      try {
        await latest.current();
      } finally {
        running = false;
      }
    }, ms);
    return () => window.clearInterval(id);
  }, [active, ms]);
}
