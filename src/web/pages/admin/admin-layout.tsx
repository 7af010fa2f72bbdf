import { useEffect, useState } from 'react';
import { Outlet } from 'react-router';
import { NavLink } from '../../components/link.js';
import { useStaff } from './staff-session.js';

/** Top bar on every back-office page: Dashboard, Bestellungen, who is signed in, Abmelden. */
export function AdminLayout() {
  const { staff, logout } = useStaff();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(false);

  const signOut = async () => {
    setBusy(true);
    setError(false);
    try {
      await logout();
    } catch {
      setError(true);
      setBusy(false);
    }
  };

  return (
    <div className="admin">
      <header className="admin-bar">
        <div className="admin-bar__inner">
          <span className="admin-bar__brand">Backoffice</span>
          <nav aria-label="Backoffice" className="admin-bar__nav">
            <NavLink to="/admin/dashboard" className="admin-bar__link" data-testid="admin-nav-dashboard">
              Dashboard
            </NavLink>
            <NavLink to="/admin/orders" className="admin-bar__link" data-testid="admin-nav-orders">
              Bestellungen
            </NavLink>
          </nav>
          <div className="admin-bar__user">
            <span className="admin-bar__email" title={staff.name ?? undefined} data-testid="admin-user">
              {staff.email}
            </span>
            <button type="button" className="button button--secondary button--small" onClick={() => void signOut()} disabled={busy} data-testid="logout">
              Abmelden
            </button>
          </div>
        </div>
      </header>
      {error && (
        <div className="admin-content">
          <p className="alert alert--error" role="alert">
            Abmelden fehlgeschlagen. Bitte versuchen Sie es erneut.
          </p>
        </div>
      )}
      <div className="admin-content">
        <Outlet />
      </div>
    </div>
  );
}

/** Sets the browser tab title of a back-office page. */
export function useAdminTitle(title: string) {
  useEffect(() => {
    document.title = `${title} · Backoffice`;
  }, [title]);
}
