import { type FormEvent, useId, useMemo, useState } from 'react';
import { browserTimeZone, timeZones, utcToZoned, zonedToUtc } from './zoned-time.js';

/**
 * A date-time and a time-zone picker (decisions.md §8: the instant is stored in UTC with the zone it
 * was chosen in). Submits the UTC instant (ISO 8601) and the zone; a time in the past is refused here
 * already, the server is the truth. Says, before anyone schedules, what goes out at that time: the
 * drafts as they are now, or nothing when one changes (docs/api.md "Releases").
 */
export function ScheduleForm({
  submitLabel,
  busy,
  initial,
  onSubmit,
  onCancel,
}: {
  submitLabel: string;
  busy: boolean;
  initial?: { scheduledAt: string | null; timeZone: string | null };
  onSubmit(scheduledAt: string, timeZone: string): void;
  onCancel?(): void;
}) {
  const id = useId();
  const zones = useMemo(() => timeZones(), []);
  const [zone, setZone] = useState(initial?.timeZone ?? browserTimeZone());
  const [local, setLocal] = useState(() =>
    initial?.scheduledAt ? utcToZoned(new Date(initial.scheduledAt), zone) : '',
  );
  const [problem, setProblem] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const instant = zonedToUtc(local, zone);
    if (!instant) return setProblem('Choose a date and a time.');
    if (instant.getTime() <= Date.now()) return setProblem('Choose a time in the future, or publish now instead.');
    setProblem(null);
    onSubmit(instant.toISOString(), zone);
  };

  return (
    <form onSubmit={submit} className="schedule-form" noValidate>
      <label htmlFor={`${id}-at`}>Publish at</label>
      <input
        id={`${id}-at`}
        type="datetime-local"
        value={local}
        required
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? `${id}-problem` : undefined}
        onChange={(event) => setLocal(event.target.value)}
      />
      <label htmlFor={`${id}-zone`}>Time zone</label>
      <select id={`${id}-zone`} value={zone} onChange={(event) => setZone(event.target.value)}>
        {zones.map((name) => (
          <option key={name} value={name}>
            {name}
          </option>
        ))}
      </select>
      <p className="muted">
        At that time each document goes out as its draft is now. If a draft changes before then, the release does not
        publish: it fails and names the documents that changed. Scheduling again takes the drafts as they are then.
      </p>
      {problem ? (
        <p id={`${id}-problem`} className="field-error" role="alert">
          {problem}
        </p>
      ) : null}
      <div className="actions">
        <button type="submit" className="primary" disabled={busy}>
          {submitLabel}
        </button>
        {onCancel ? (
          <button type="button" onClick={onCancel}>
            Cancel
          </button>
        ) : null}
      </div>
    </form>
  );
}
