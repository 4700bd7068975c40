import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { apiKeys, people } from '../../api/index.js';
import { useStudio } from '../../state/studio-context.js';
import { labelOf } from '../../ui/labels.js';
import type { AuditEntry, AuditListQuery } from './activity-api.js';
import { ACTION_FILTERS, actorText } from './activity-words.js';
import { type ChosenDocument, DocumentFilter } from './document-filter.js';

export type Filters = Pick<
  AuditListQuery,
  'action' | 'actor' | 'documentId' | 'outcome' | 'type' | 'from' | 'to' | 'includeRoutine'
>;

/** The people and keys the Person filter offers: everyone the caller may list, and whoever the log shows. */
function usePeople(seen: readonly AuditEntry[]) {
  const listed = useQuery({
    queryKey: ['activity-people'],
    queryFn: async () => {
      // Administrators (who read the log) may list both; a refusal leaves the people the log shows.
      const [users, keys] = await Promise.all([
        people.list(0, 100).catch(() => null),
        apiKeys.list().catch(() => null),
      ]);
      return [
        ...(users?.data ?? []).map((user) => ({ id: user.id, name: user.email })),
        ...(keys ?? []).map((key) => ({ id: key.id, name: `API key “${key.label}”` })),
      ];
    },
    staleTime: 60_000,
  });
  const byId = new Map((listed.data ?? []).map((person) => [person.id, person.name]));
  for (const entry of seen) {
    if (!byId.has(entry.actor.id) && entry.actor.type !== 'anonymous') byId.set(entry.actor.id, actorText(entry));
  }
  return [...byId].map(([id, name]) => ({ id, name })).sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * The Activity page's filters, each by name (a person, a document by its title, an action in words, a
 * type), never by id; applied with **Apply filters**.
 */
export function ActivityFilters({ seen, onApply }: { seen: readonly AuditEntry[]; onApply(filters: Filters): void }) {
  const { types } = useStudio();
  const everyone = usePeople(seen);
  const [document, setDocument] = useState<ChosenDocument | null>(null);

  const apply = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const text = (name: string) => {
      const value = String(form.get(name) ?? '').trim();
      return value === '' ? undefined : value;
    };
    const day = (name: string) => {
      const value = text(name);
      return value ? new Date(`${value}T00:00:00`).toISOString() : undefined;
    };
    const next: Filters = {
      action: text('action'),
      actor: text('actor'),
      documentId: document?.documentId,
      type: text('type'),
      outcome: text('outcome') as Filters['outcome'],
      from: day('from'),
      to: day('to'),
      includeRoutine: form.get('includeRoutine') === 'on' ? true : undefined,
    };
    onApply(Object.fromEntries(Object.entries(next).filter(([, value]) => value !== undefined)) as Filters);
  };

  return (
    <form className="filters" onSubmit={apply} aria-label="Filter activity">
      <label>
        Person
        <select name="actor" defaultValue="">
          <option value="">Anyone</option>
          {everyone.map((person) => (
            <option key={person.id} value={person.id}>
              {person.name}
            </option>
          ))}
        </select>
      </label>
      <DocumentFilter chosen={document} onChoose={setDocument} />
      <label>
        Action
        <select name="action" defaultValue="">
          <option value="">Any</option>
          {ACTION_FILTERS.map((filter) => (
            <option key={filter.action} value={filter.action}>
              {filter.label}
            </option>
          ))}
        </select>
      </label>
      <label>
        Type
        <select name="type" defaultValue="">
          <option value="">Any</option>
          {types.map((type) => (
            <option key={type.name} value={type.name}>
              {labelOf(type.name)}
            </option>
          ))}
        </select>
      </label>
      <label>
        Outcome
        <select name="outcome" defaultValue="">
          <option value="">Any</option>
          <option value="success">Done</option>
          <option value="failure">Refused</option>
          <option value="denied">Not allowed</option>
        </select>
      </label>
      <label>
        From <input name="from" type="date" />
      </label>
      <label>
        Until <input name="to" type="date" />
      </label>
      <label className="checkbox-label">
        <input name="includeRoutine" type="checkbox" /> Include preview tokens
      </label>
      <button type="submit">Apply filters</button>
    </form>
  );
}
