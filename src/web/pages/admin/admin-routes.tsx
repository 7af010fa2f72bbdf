// The staff back office under /admin/*: German only, behind a server-side staff session.
import { Navigate, Route, Routes } from 'react-router';
// Only the staff area's styles: loaded with it, not inlined into every public page (scripts/vite/inline-css.ts).
import '../../styles/admin.css';
import { AdminLayout } from './admin-layout.js';
import { DashboardPage } from './dashboard-page.js';
import { OrderDetailPage } from './order-detail-page.js';
import { OrderListPage } from './order-list-page.js';
import { StaffGate } from './staff-session.js';

export default function AdminRoutes() {
  return (
    <StaffGate>
      <Routes>
        <Route element={<AdminLayout />}>
          <Route index element={<Navigate to="/admin/orders" replace />} />
          <Route path="dashboard" element={<DashboardPage />} />
          <Route path="orders" element={<OrderListPage />} />
          <Route path="orders/:id" element={<OrderDetailPage />} />
          <Route path="*" element={<Navigate to="/admin/orders" replace />} />
        </Route>
      </Routes>
    </StaffGate>
  );
}
