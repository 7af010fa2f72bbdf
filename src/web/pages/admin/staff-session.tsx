// Staff sign-in: the session lives in an HttpOnly cookie; the CSRF token only in React state.
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type FormEvent, type ReactNode } from 'react';
import { ApiError, api, uploadFile } from '../../lib/api.js';
import type { SessionResponse, StaffUser } from '../../../domain/staff-api.js';

interface RequestInit {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  body?: unknown;
  signal?: AbortSignal;
}

export interface StaffContextValue {
  staff: StaffUser;
  /** JSON call to the staff API; state changes carry the CSRF token, a 401 shows the login form again. */
  request: <T>(path: string, init?: RequestInit) => Promise<T>;
  /** One multipart file with upload progress, with the CSRF token. */
  upload: <T>(url: string, file: File, onProgress: (fraction: number) => void) => Promise<T>;
  logout: () => Promise<void>;
}

const StaffContext = createContext<StaffContextValue | null>(null);

export function useStaff(): StaffContextValue {
  const value = useContext(StaffContext);
  if (!value) throw new Error('useStaff() needs <StaffGate>');
  return value;
}

export function toApiError(error: unknown): ApiError {
  return error instanceof ApiError ? error : new ApiError(0, 'unknown');
}

type Session =
  | { kind: 'checking' }
  | { kind: 'unavailable' }
  | { kind: 'signedOut'; expired: boolean }
  | { kind: 'signedIn'; staff: StaffUser; csrfToken: string };

/** Shows its children only to signed-in staff; everyone else gets the login form. */
export function StaffGate({ children }: { children: ReactNode }) {
  const [session, setSession] = useState<Session>({ kind: 'checking' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    api<SessionResponse>('/api/auth/session', { signal: controller.signal }).then(
      (data) => setSession({ kind: 'signedIn', staff: data.staff, csrfToken: data.csrfToken }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        setSession(toApiError(error).status === 401 ? { kind: 'signedOut', expired: false } : { kind: 'unavailable' });
      },
    );
    return () => controller.abort();
  }, [attempt]);

  const signedIn = session.kind === 'signedIn' ? session : null;
  const csrfToken = signedIn?.csrfToken ?? '';

  const expire = useCallback((error: unknown) => {
    if (error instanceof ApiError && error.status === 401) setSession({ kind: 'signedOut', expired: true });
    throw error;
  }, []);

  const request = useCallback(
    <T,>(path: string, init: RequestInit = {}): Promise<T> => {
      const method = init.method ?? 'GET';
      const headers: Record<string, string> = method === 'GET' ? {} : { 'x-csrf-token': csrfToken };
      return api<T>(path, { method, body: init.body, signal: init.signal, headers }).catch(expire);
    },
    [csrfToken, expire],
  );

  const upload = useCallback(
    <T,>(url: string, file: File, onProgress: (fraction: number) => void): Promise<T> =>
      uploadFile<T>(url, file, { 'x-csrf-token': csrfToken }, onProgress).catch(expire),
    [csrfToken, expire],
  );

  const logout = useCallback(async () => {
    try {
      await api<void>('/api/auth/logout', { method: 'POST', headers: { 'x-csrf-token': csrfToken } });
    } catch (error) {
      // Already signed out on the server: the reload shows the login form, as intended.
      if (!(error instanceof ApiError && error.status === 401)) throw error;
    }
    // Spec: logout reloads /admin/orders; a full load also drops every bit of staff data from memory.
    window.location.assign('/admin/orders');
  }, [csrfToken]);

  const value = useMemo<StaffContextValue | null>(
    () => (signedIn ? { staff: signedIn.staff, request, upload, logout } : null),
    [signedIn, request, upload, logout],
  );

  if (session.kind === 'checking') {
    return (
      <div className="admin-center">
        <p role="status" aria-live="polite" className="admin-muted">
          Sitzung wird geprüft...
        </p>
      </div>
    );
  }
  if (session.kind === 'unavailable') {
    return (
      <div className="admin-center">
        <div className="admin-login">
          <p className="alert alert--error" role="alert">
            Der Anmeldedienst ist nicht erreichbar.
          </p>
          <button type="button" className="button button--secondary" onClick={() => setAttempt((n) => n + 1)}>
            Erneut versuchen
          </button>
        </div>
      </div>
    );
  }
  if (!value) {
    return (
      <LoginForm
        expired={session.kind === 'signedOut' && session.expired}
        onSignedIn={(data) => setSession({ kind: 'signedIn', staff: data.staff, csrfToken: data.csrfToken })}
      />
    );
  }
  return <StaffContext.Provider value={value}>{children}</StaffContext.Provider>;
}

function LoginForm({ expired, onSignedIn }: { expired: boolean; onSignedIn: (data: SessionResponse) => void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    document.title = 'Admin Login';
  }, []);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!email.trim() || !password) {
      setError('Bitte E-Mail und Passwort eingeben.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      onSignedIn(await api<SessionResponse>('/api/auth/login', { method: 'POST', body: { email: email.trim(), password } }));
    } catch (caught) {
      const failure = toApiError(caught);
      setPassword('');
      if (failure.code === 'invalidCredentials' || failure.status === 401) setError('Falsches Passwort');
      else if (failure.code === 'tooManyAttempts' || failure.status === 429) setError('Zu viele Fehlversuche. Bitte warten Sie einige Minuten.');
      else setError('Anmeldung fehlgeschlagen. Bitte versuchen Sie es erneut.');
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="admin-center">
      <form className="admin-login" onSubmit={submit} noValidate aria-labelledby="admin-login-title">
        <h1 id="admin-login-title">Admin Login</h1>
        {expired && !error && (
          <p className="alert alert--info" role="status">
            Ihre Sitzung ist abgelaufen. Bitte melden Sie sich erneut an.
          </p>
        )}
        <div className="field">
          <label htmlFor="admin-login-email">E-Mail</label>
          <input
            id="admin-login-email"
            type="email"
            autoComplete="username"
            // The login form is the only thing on the page: start typing at once.
            autoFocus
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            data-testid="login-email"
          />
        </div>
        <div className="field">
          <label htmlFor="admin-login-password">Passwort</label>
          <input
            id="admin-login-password"
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            aria-invalid={error === 'Falsches Passwort' ? true : undefined}
            aria-describedby={error ? 'admin-login-error' : undefined}
            data-testid="login-password"
          />
        </div>
        {error && (
          <p id="admin-login-error" className="alert alert--error" role="alert" data-testid="login-error">
            {error}
          </p>
        )}
        <button type="submit" className="button button--primary button--block" disabled={busy} aria-busy={busy} data-testid="login-submit">
          Anmelden
        </button>
      </form>
    </div>
  );
}
