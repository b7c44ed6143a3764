"use client";

import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
} from "react";
import { ApiError, apiFetch, type ProfileType, type User } from "@/lib/client/api";

// The browser's view of the session. On load it restores the session from the httpOnly
// cookie (GET /api/auth/me); pages read it with useSession() and change it through
// signIn / setRole / signOut, which call the API and keep this state in step.

export type SessionStatus = "loading" | "signed-in" | "signed-out";

export type SessionValue = {
  user: User | null;
  status: SessionStatus;
  /** Why restoring the session failed (other than "not signed in"), if it did. */
  error: string | null;
  refresh(): Promise<void>;
  /** Posts an identity token to /api/auth/session; resolves with the signed-in user. */
  signIn(idToken: string, profileType?: ProfileType): Promise<User>;
  setRole(profileType: ProfileType): Promise<User>;
  signOut(): Promise<void>;
};

const SessionContext = createContext<SessionValue | null>(null);

export function SessionProvider({ children }: { children: ReactNode }) {
  const [user, setUser] = useState<User | null>(null);
  const [status, setStatus] = useState<SessionStatus>("loading");
  const [error, setError] = useState<string | null>(null);
  // Only the latest change may land: a slow /me must not undo a sign-in that finished first.
  const generation = useRef(0);

  const apply = useCallback((next: User | null, nextError: string | null = null) => {
    generation.current++;
    setUser(next);
    setStatus(next ? "signed-in" : "signed-out");
    setError(nextError);
  }, []);

  const refresh = useCallback(async () => {
    const mine = ++generation.current;
    try {
      const { user: me } = await apiFetch<{ user: User }>("/api/auth/me");
      if (mine === generation.current) apply(me);
    } catch (err) {
      if (mine !== generation.current) return;
      const expected = err instanceof ApiError && err.status === 401;
      apply(
        null,
        expected ? null : err instanceof Error ? err.message : "Could not restore the session.",
      );
    }
  }, [apply]);

  useEffect(() => {
    void refresh();
  }, [refresh]);

  const signIn = useCallback(
    async (idToken: string, profileType?: ProfileType) => {
      const res = await apiFetch<{ user: User }>("/api/auth/session", {
        body: { idToken, ...(profileType ? { profileType } : {}) },
      });
      apply(res.user);
      return res.user;
    },
    [apply],
  );

  const setRole = useCallback(
    async (profileType: ProfileType) => {
      const res = await apiFetch<{ user: User }>("/api/auth/role", { body: { profileType } });
      apply(res.user);
      return res.user;
    },
    [apply],
  );

  const signOut = useCallback(async () => {
    await apiFetch("/api/auth/session", { method: "DELETE" });
    apply(null);
  }, [apply]);

  const value = useMemo<SessionValue>(
    () => ({ user, status, error, refresh, signIn, setRole, signOut }),
    [user, status, error, refresh, signIn, setRole, signOut],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

/** The session; must be used under <SessionProvider> (mounted in app/layout.tsx). */
export function useSession(): SessionValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error("useSession() must be used inside <SessionProvider>");
  return value;
}
