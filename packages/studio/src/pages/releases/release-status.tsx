import type { ReleaseStatus } from '@cms/core';

const LABELS: Record<ReleaseStatus, string> = {
  open: 'Open',
  scheduled: 'Scheduled',
  publishing: 'Publishing',
  published: 'Published',
  failed: 'Failed',
  reverted: 'Reverted',
};

/** A release's status as words (never by colour only: STUDIO-NOTES 17). */
export function ReleaseStatusBadge({ status }: { status: ReleaseStatus }) {
  return <span className={`badge badge-${status}`}>{LABELS[status]}</span>;
}
