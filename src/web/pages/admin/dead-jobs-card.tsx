// Jobs that failed for good (dead letters): staff see them on the dashboard and send them round again.
import { useState } from 'react';
import { Link } from '../../components/link.js';
import type { AdminJob, DeadJobsResponse } from '../../../domain/staff-api.js';
import { ErrorAlert, ListCard } from './admin-ui.js';
import { JobLine } from './studio-panel.js';
import { useStaff } from './staff-session.js';
import { useAdminQuery } from './use-admin-query.js';

export function DeadJobsCard() {
  const { request } = useStaff();
  const { data, reload } = useAdminQuery<DeadJobsResponse>('/api/admin/jobs/dead');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(false);
  if (!data) return null;
  const retry = async (job: AdminJob) => {
    setBusy(true);
    setError(false);
    try {
      await request(`/api/admin/jobs/${job.id}/retry`, { method: 'POST', body: {} });
      reload();
    } catch {
      setError(true);
    } finally {
      setBusy(false);
    }
  };
  return (
    <ListCard
      id="dead-jobs-title"
      title="Abgebrochene Aufträge"
      count={data.jobs.length}
      empty="Keine abgebrochenen Aufträge."
      alert={data.jobs.length > 0}
      testId="dead-jobs"
      notice={error && <ErrorAlert>Fehler beim Wiederholen</ErrorAlert>}
    >
      <ol className="admin-jobs">
        {data.jobs.map((job) => (
          <JobLine key={job.id} job={job} busy={busy} onRetry={() => void retry(job)}>
            {job.orderId && (
              <Link to={`/admin/orders/${job.orderId}`} className="admin-muted">
                Zur Bestellung
              </Link>
            )}
          </JobLine>
        ))}
      </ol>
    </ListCard>
  );
}
