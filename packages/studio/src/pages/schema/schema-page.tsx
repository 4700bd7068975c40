import { type ReactElement, useEffect, useState } from 'react';
import { schema } from '../../api/index.js';
import type { ArrayItems, FieldMetadata, SchemaType } from '../../editor/core-schema.js';
import { Link, useLocation } from '../../routing/navigation.js';
import { useStudio } from '../../state/studio-context.js';
import { DataTable } from '../../ui/data-table.js';
import { labelOf } from '../../ui/labels.js';
import { Empty, ErrorNotice, Loading, Notice } from '../../ui/notice.js';
import { useApiData } from '../../ui/use-api-data.js';
import { type Origin, overlayOrigins, type TypeOrigin } from './schema-diff.js';
import './schema.css';

interface Loaded {
  types: SchemaType[];
  schemaHash: string;
  /** The base's effective schema, when this environment extends one. */
  base: { name: string; types: SchemaType[] } | null;
}

const ORIGIN_TEXT: Record<Origin, string> = {
  added: 'Added here',
  changed: 'Changed here',
  inherited: 'Inherited',
};

/**
 * `/schema` (domain.content route `schema.view`): the content types and fields in force in this
 * environment, its schema hash, and, for an environment extending another, what its overlay adds or
 * changes. Read only: the schema comes from `cms.config.ts` through `cms schema sync`.
 */
export function SchemaPage() {
  const { target, environments } = useStudio();
  const { query } = useLocation();
  const focusType = query.get('type');
  const environment = environments.find((env) => env.name === target.environment);
  const baseName = environment?.extends ?? null;
  const schemas = useApiData(async (): Promise<Loaded> => {
    const [mine, theirs] = await Promise.all([
      schema.get(target),
      baseName ? schema.get({ project: target.project, environment: baseName }) : null,
    ]);
    return {
      types: mine.types,
      schemaHash: mine.schemaHash,
      base: theirs && baseName ? { name: baseName, types: theirs.types } : null,
    };
  }, [target, baseName]);
  const loaded = schemas.data;
  const error = schemas.error;
  const [copied, setCopied] = useState(false);

  useEffect(() => {
    if (!loaded || !focusType) return;
    const section = document.getElementById(`type-${focusType}`);
    section?.scrollIntoView({ block: 'start' });
    section?.focus({ preventScroll: true });
  }, [loaded, focusType]);

  const origins = loaded?.base ? overlayOrigins(loaded.types, loaded.base.types) : null;
  const added = origins ? Object.values(origins).filter((o) => o.origin === 'added').length : 0;
  const changed = origins ? Object.values(origins).filter((o) => o.origin === 'changed').length : 0;

  const copyHash = async () => {
    if (!loaded) return;
    await navigator.clipboard?.writeText(loaded.schemaHash).catch(() => undefined);
    setCopied(true);
  };

  return (
    <>
      <h1>Schema</h1>
      <p className="muted">
        The content types in force in <strong>{target.environment}</strong> of project <strong>{target.project}</strong>
        . Read only: the schema is defined in <code>cms.config.ts</code> and sent with <code>cms schema sync</code>.
      </p>
      <ErrorNotice error={error} />
      {loaded === null && !error ? <Loading /> : null}
      {loaded ? (
        <>
          <dl className="facts schema-facts">
            <dt>Schema hash</dt>
            <dd>
              <code className="hash">{loaded.schemaHash}</code>{' '}
              <button type="button" onClick={copyHash}>
                Copy hash
              </button>{' '}
              <span role="status">{copied ? 'Copied.' : ''}</span>
            </dd>
            <dt>Types</dt>
            <dd>{loaded.types.length}</dd>
            <dt>Extends</dt>
            <dd>{baseName ?? 'nothing (this environment’s schema is its own)'}</dd>
          </dl>
          {loaded.base ? (
            <Notice>
              This environment extends <strong>{loaded.base.name}</strong>: its schema is the schema of{' '}
              {loaded.base.name} with this environment’s overlay on top. The overlay adds{' '}
              {added === 1 ? '1 type' : `${added} types`} and changes {changed === 1 ? '1 type' : `${changed} types`},
              and never removes anything. Fields are marked “Added here”, “Changed here” or “Inherited”.
            </Notice>
          ) : null}
          {loaded.types.length === 0 ? (
            <Empty>
              Nothing synced to this environment yet. Define types in <code>cms.config.ts</code> and run{' '}
              <code>cms schema sync</code>.
            </Empty>
          ) : (
            <nav aria-label="Types in this schema" className="schema-toc">
              <ul>
                {loaded.types.map((type) => (
                  <li key={type.name}>
                    <a href={`#type-${type.name}`}>{labelOf(type.name)}</a>
                    {origins && origins[type.name]?.origin !== 'inherited' ? (
                      <span className={`badge badge-overlay-${origins[type.name]?.origin}`}>
                        {ORIGIN_TEXT[origins[type.name]?.origin ?? 'inherited']}
                      </span>
                    ) : null}
                  </li>
                ))}
              </ul>
            </nav>
          )}
          {loaded.types.map((type) => (
            <TypeSection key={type.name} type={type} origin={origins?.[type.name] ?? null} />
          ))}
        </>
      ) : null}
    </>
  );
}

function TypeSection({ type, origin }: { type: SchemaType; origin: TypeOrigin | null }) {
  const headingId = `type-${type.name}-heading`;
  return (
    <section id={`type-${type.name}`} className="schema-type" aria-labelledby={headingId} tabIndex={-1}>
      <h2 id={headingId}>
        {labelOf(type.name)} <code className="muted">{type.name}</code>
        {origin && origin.origin !== 'inherited' ? (
          <span className={`badge badge-overlay-${origin.origin}`}>{ORIGIN_TEXT[origin.origin]}</span>
        ) : null}
      </h2>
      <p className="muted">
        Files in <code>{type.directory}/</code> ·{' '}
        {type.localized ? 'localized (one document per locale)' : 'not localized'} ·{' '}
        <Link to={`/content/${encodeURIComponent(type.name)}`}>Documents</Link>
      </p>
      <DataTable
        items={Object.entries(type.fields)}
        empty="No frontmatter fields."
        caption={`Fields of ${labelOf(type.name)}`}
        className="list schema-fields"
        columns={['Field', 'Kind', 'Required', 'Rules', 'Default', ...(origin ? ['Overlay'] : [])]}
        row={([name, field]) => fieldRows(name, field, 0, origin ? (origin.fields[name] ?? 'inherited') : null)}
      />
    </section>
  );
}

/** A field's row, then its nested fields' rows (objects, arrays of objects), indented. */
function fieldRows(
  name: string,
  field: FieldMetadata | ArrayItems,
  depth: number,
  origin: Origin | null,
  key = name,
): ReactElement[] {
  const nested = field.kind === 'object' ? field.fields : field.kind === 'array' ? field.items?.fields : undefined;
  const row = (
    <tr key={key}>
      <th scope="row" className="mono" style={{ paddingLeft: `${0.5 + depth * 1.25}rem` }}>
        {depth > 0 ? <span aria-hidden="true">↳ </span> : null}
        {name}
      </th>
      <td>{describeKind(field)}</td>
      <td>{'required' in field ? (field.required ? 'yes' : 'no') : '—'}</td>
      <td>{describeRules(field)}</td>
      <td className="mono">{'default' in field && field.default !== null ? JSON.stringify(field.default) : '—'}</td>
      {origin !== null ? <td>{depth === 0 ? ORIGIN_TEXT[origin] : ''}</td> : null}
    </tr>
  );
  const children = Object.entries(nested ?? {}).flatMap(([child, childField]) =>
    fieldRows(child, childField, depth + 1, origin, `${key}.${child}`),
  );
  return [row, ...children];
}

function describeKind(field: FieldMetadata | ArrayItems): string {
  if (field.kind === 'reference') return `reference to ${field.reference?.targetType ?? '?'}`;
  if (field.kind === 'enum') return `one of ${(field.values ?? []).join(', ')}`;
  if (field.kind === 'array' && 'items' in field && field.items) {
    const items = field.items;
    if (items.kind === 'reference') return `list of references to ${items.reference?.targetType ?? '?'}`;
    if (items.kind === 'enum') return `list of: ${(items.values ?? []).join(', ')}`;
    return `list of ${items.kind}`;
  }
  return field.kind;
}

function describeRules(field: FieldMetadata | ArrayItems): string {
  const parts: string[] = [];
  if ('nullable' in field && field.nullable) parts.push('may be null');
  for (const check of field.checks ?? []) {
    const unit = field.kind === 'string' ? ' characters' : field.kind === 'array' ? ' items' : '';
    if (check.type === 'min') parts.push(`at least ${check.value}${unit}`);
    if (check.type === 'max') parts.push(`at most ${check.value}${unit}`);
    if (check.type === 'regex') parts.push(`matches /${check.value}/`);
    if (check.type === 'url') parts.push('a web address');
    if (check.type === 'email') parts.push('an email address');
  }
  return parts.length > 0 ? parts.join('; ') : '—';
}
