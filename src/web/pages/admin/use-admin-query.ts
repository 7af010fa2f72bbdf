import { useCallback, useEffect, useState } from 'react';
import type { ApiError } from '../../lib/api.js';
import { toApiError, useStaff } from './staff-session.js';

interface Loaded<T> {
  path: string;
  version: number;
  data: T | null;
  error: ApiError | null;
}

export interface AdminQuery<T> {
  data: T | null;
  error: ApiError | null;
  /** True until the answer for the current path and version has arrived; old data stays visible meanwhile. */
  loading: boolean;
  reload: () => void;
  /** Puts an answer in place, e.g. the detail a POST returned, without asking again. */
  replace: (data: T) => void;
}

/** GET a staff API path, again whenever the path changes or reload() is called. */
export function useAdminQuery<T>(path: string): AdminQuery<T> {
  const { request } = useStaff();
  const [version, setVersion] = useState(0);
  const [loaded, setLoaded] = useState<Loaded<T> | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    request<T>(path, { signal: controller.signal }).then(
      (data) => setLoaded({ path, version, data, error: null }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        setLoaded((previous) => ({ path, version, data: previous?.path === path ? previous.data : null, error: toApiError(error) }));
      },
    );
    return () => controller.abort();
  }, [path, version, request]);

  const reload = useCallback(() => setVersion((n) => n + 1), []);
  const replace = useCallback((data: T) => setLoaded({ path, version, data, error: null }), [path, version]);

  const current = loaded?.path === path ? loaded : null;
  return {
    data: current?.data ?? null,
    error: current?.error ?? null,
    loading: !current || current.version !== version,
    reload,
    replace,
  };
}
