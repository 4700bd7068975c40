/**
 * Promotion with the plan first: the dry run of every published document of the source (create /
 * update / unchanged / conflict, with the reason of a conflict), a choice of documents, a dry run of
 * that choice, then applying it. The server applies a selection only when none of it conflicts.
 */
import { useEffect, useId, useRef, useState } from 'react';
import {
  type CmsError,
  DEFAULT_LOCALE,
  type Environment,
  environments,
  type PromotePlanItem,
} from '../../api/index.js';
import { toApiError } from '../../state/studio-context.js';
import { DataTable } from '../../ui/data-table.js';
import { ErrorNotice, Notice } from '../../ui/notice.js';

const ACTION_WORDS: Record<PromotePlanItem['action'], string> = {
  create: 'Create',
  update: 'Update',
  unchanged: 'Unchanged',
  conflict: 'Conflict',
};
const ACTION_BADGE: Record<PromotePlanItem['action'], string> = {
  create: 'badge-published',
  update: 'badge-changed',
  unchanged: 'badge-draft',
  conflict: 'badge-error',
};

/** "2 to create, 1 to update, 3 unchanged, 1 conflict". */
export function summaryOf(plan: PromotePlanItem[]): string {
  const count = (action: PromotePlanItem['action']) => plan.filter((item) => item.action === action).length;
  const parts = [
    `${count('create')} to create`,
    `${count('update')} to update`,
    `${count('unchanged')} unchanged`,
    `${count('conflict')} ${count('conflict') === 1 ? 'conflict' : 'conflicts'}`,
  ];
  return parts.join(', ');
}

const selectable = (item: PromotePlanItem) => item.action === 'create' || item.action === 'update';

type Outcome = { kind: 'dry' | 'applied' | 'refused'; plan: PromotePlanItem[] };

export function PromotePanel({
  project,
  environments: list,
  initialSource,
  onApplied,
}: {
  project: string;
  environments: Environment[];
  initialSource: string | null;
  onApplied: () => void;
}) {
  const ids = useId();
  const defaultName = list.find((env) => env.isDefault)?.name ?? list[0]?.name ?? '';
  const firstSource = initialSource ?? list.find((env) => !env.isDefault)?.name ?? defaultName;
  const [source, setSource] = useState(firstSource);
  const [target, setTarget] = useState(() =>
    firstSource === defaultName ? (list.find((env) => env.name !== defaultName)?.name ?? '') : defaultName,
  );
  const [plan, setPlan] = useState<PromotePlanItem[] | null>(null);
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [error, setError] = useState<CmsError | null>(null);
  const [busy, setBusy] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);

  // Opened from a row's "Promote…": bring the panel into view and put the focus on it.
  useEffect(() => {
    if (initialSource === null) return;
    heading.current?.scrollIntoView?.({ block: 'start' });
    heading.current?.focus();
  }, [initialSource]);

  const reset = () => {
    setPlan(null);
    setOutcome(null);
    setError(null);
  };

  const run = async <T,>(work: () => Promise<T>): Promise<T | null> => {
    setBusy(true);
    setError(null);
    try {
      return await work();
    } catch (caught) {
      setError(toApiError(caught));
      return null;
    } finally {
      setBusy(false);
    }
  };

  const showPlan = async () => {
    setOutcome(null);
    const answer = await run(() => environments.promote(project, source, { target, dryRun: true }));
    if (!answer) return;
    setPlan(answer.plan);
    setChosen(new Set(answer.plan.filter(selectable).map((item) => item.documentId)));
  };

  const selection = plan?.filter((item) => chosen.has(item.documentId)) ?? [];

  const dryRun = async () => {
    const answer = await run(() =>
      environments.promote(project, source, { target, dryRun: true, documentIds: selection.map((i) => i.documentId) }),
    );
    if (answer) setOutcome({ kind: 'dry', plan: answer.plan });
  };

  const apply = async () => {
    const count = selection.length;
    if (
      !window.confirm(
        `Promote ${count} document${count === 1 ? '' : 's'} from ${source} to ${target}? Each is published in ${target}.`,
      )
    ) {
      return;
    }
    const answer = await run(() =>
      environments.promote(project, source, { target, documentIds: selection.map((i) => i.documentId) }),
    );
    if (!answer) return;
    setOutcome({ kind: answer.applied ? 'applied' : 'refused', plan: answer.plan });
    if (answer.applied) {
      onApplied();
      // The plan as it stands now: the promoted documents are unchanged in the target.
      const fresh = await run(() => environments.promote(project, source, { target, dryRun: true }));
      if (fresh) {
        setPlan(fresh.plan);
        setChosen(new Set(fresh.plan.filter(selectable).map((item) => item.documentId)));
      }
    }
  };

  const allChosen = !!plan?.filter(selectable).every((item) => chosen.has(item.documentId));

  return (
    <section className="panel" aria-labelledby={`${ids}-heading`}>
      <h2 id={`${ids}-heading`} ref={heading} tabIndex={-1}>
        Promote content
      </h2>
      <p className="hint">
        Copies published documents from one environment to another, matched by path and locale. Drafts are not promoted.
        Nothing is written until you apply, and nothing at all if a chosen document conflicts.
      </p>
      <div className="toolbar">
        <label>
          <span>From</span>
          <select
            aria-label="From"
            value={source}
            onChange={(e) => {
              setSource(e.target.value);
              reset();
            }}
          >
            {list.map((env) => (
              <option key={env.name} value={env.name}>
                {env.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          <span>To</span>
          <select
            aria-label="To"
            value={target}
            onChange={(e) => {
              setTarget(e.target.value);
              reset();
            }}
          >
            {list.map((env) => (
              <option key={env.name} value={env.name} disabled={env.name === source}>
                {env.name}
              </option>
            ))}
          </select>
        </label>
        <button type="button" onClick={showPlan} disabled={busy || !target || source === target}>
          Show plan
        </button>
      </div>
      {source === target ? <p className="field-error">Choose two different environments.</p> : null}
      <ErrorNotice error={error} />
      {plan ? (
        <>
          <h3>
            Plan: {source} → {target}
          </h3>
          <p role="status">{plan.length === 0 ? `${source} has no published documents.` : summaryOf(plan)}</p>
          <DataTable
            items={plan}
            columns={[
              <label key="all">
                <input
                  type="checkbox"
                  checked={allChosen}
                  disabled={!plan.some(selectable)}
                  onChange={(e) =>
                    setChosen(
                      e.target.checked ? new Set(plan.filter(selectable).map((item) => item.documentId)) : new Set(),
                    )
                  }
                />
                <span className="visually-hidden">Choose every document that can move</span>
              </label>,
              'Document',
              'Locale',
              'Action',
            ]}
            row={(item) => (
              <tr key={item.documentId}>
                <td>
                  <input
                    type="checkbox"
                    aria-label={`Promote ${item.path}${item.locale !== DEFAULT_LOCALE ? ` (${item.locale})` : ''}`}
                    checked={chosen.has(item.documentId)}
                    disabled={!selectable(item)}
                    onChange={(e) =>
                      setChosen((all) => {
                        const next = new Set(all);
                        if (e.target.checked) next.add(item.documentId);
                        else next.delete(item.documentId);
                        return next;
                      })
                    }
                  />
                </td>
                <th scope="row">{item.path}</th>
                <td>{item.locale === DEFAULT_LOCALE ? '—' : item.locale}</td>
                <td>
                  <span className={`badge ${ACTION_BADGE[item.action]}`}>{ACTION_WORDS[item.action]}</span>
                  {item.reason ? <small className="muted"> {item.reason}</small> : null}
                </td>
              </tr>
            )}
          />
          <div className="actions">
            <button type="button" onClick={dryRun} disabled={busy || selection.length === 0}>
              Dry run of the selection
            </button>
            <button type="button" className="primary" onClick={apply} disabled={busy || selection.length === 0}>
              Promote {selection.length} document{selection.length === 1 ? '' : 's'}
            </button>
          </div>
        </>
      ) : null}
      {outcome ? <OutcomeView outcome={outcome} target={target} /> : null}
    </section>
  );
}

function OutcomeView({ outcome, target }: { outcome: Outcome; target: string }) {
  const written = outcome.plan.filter(selectable);
  const conflicts = outcome.plan.filter((item) => item.action === 'conflict');
  return (
    <div className="outcome">
      {outcome.kind === 'dry' ? (
        <Notice kind="info">
          Dry run, nothing written: {summaryOf(outcome.plan)}.
          {written.length > 0 ? ` Would write: ${written.map((item) => item.path).join(', ')}.` : ''}
        </Notice>
      ) : null}
      {outcome.kind === 'applied' ? (
        <Notice kind="success">
          Promoted to {target}:{' '}
          {written.map((item) => `${item.path} (${item.action})`).join(', ') || 'nothing to write'}.
        </Notice>
      ) : null}
      {outcome.kind === 'refused' ? (
        <Notice kind="warning">
          Nothing was written: {conflicts.map((item) => `${item.path}: ${item.reason ?? 'conflict'}`).join('; ')}.
        </Notice>
      ) : null}
    </div>
  );
}
