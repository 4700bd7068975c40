import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { ApiError, type ContentDocument, content } from '../api/index.js';
import { ConflictPanel } from '../editor/conflict-panel.js';
import { compileFrontmatterValidator, type FieldMetadata } from '../editor/core-schema.js';
import { ErrorSummary } from '../editor/error-summary.js';
import { FieldInput } from '../editor/field-form.js';
import { draftKey, type LocalDraft, localDrafts } from '../editor/local-drafts.js';
import { MarkdownEditor } from '../editor/markdown-editor.js';
import { errorKey, type Path, sameJson, setAt } from '../editor/paths.js';
import { Preview } from '../editor/preview.js';
import { changedKeys } from '../editor/text-diff.js';
import { ContributedField, EditorNodes, useFieldKinds } from '../extensions/contributed.js';
import { Slot } from '../extensions/slot.js';
import { Link, navigate, useExitGuard } from '../router.js';
import { toApiError, useStudio } from '../state/studio-context.js';
import { ErrorNotice, Loading, Notice } from '../ui/notice.js';
import { labelOf } from '../ui/shell.js';
import { titleOf } from './document-title.js';
import { EditorSidebar } from './editor-sidebar.js';

type Frontmatter = Record<string, unknown>;

/** `/content/:type/:id` (and `/content/:type/new`): the form, the body, save, conflicts, publish. */
export function EditorPage({ type, id }: { type: string; id: string }) {
  const studio = useStudio();
  const { types, schemaHash } = studio;
  // Keyed by value: a reloaded context must not reload the document over the person's edits.
  const target = useMemo(
    () => ({ project: studio.target.project, environment: studio.target.environment }),
    [studio.target.project, studio.target.environment],
  );
  const schemaType = types.find((t) => t.name === type);
  const isNew = id === 'new';
  const validate = useMemo(() => (schemaType ? compileFrontmatterValidator(schemaType) : null), [schemaType]);

  const [doc, setDoc] = useState<ContentDocument | null>(null);
  const [frontmatter, setFrontmatter] = useState<Frontmatter>({});
  const [body, setBody] = useState('');
  const [baseRevision, setBaseRevision] = useState(0);
  const [editorKey, setEditorKey] = useState(0);
  const [loadError, setLoadError] = useState<ApiError | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [attempted, setAttempted] = useState(false);
  const [saving, setSaving] = useState(false);
  const [savedAt, setSavedAt] = useState<string | null>(null);
  const [conflict, setConflict] = useState<ContentDocument | null>(null);
  const [theirsAside, setTheirsAside] = useState<ContentDocument | null>(null);
  const [offeredDraft, setOfferedDraft] = useState<LocalDraft | null>(null);
  const [labels, setLabels] = useState<Record<string, string>>({});
  const [newPath, setNewPath] = useState('');
  const [newLocale, setNewLocale] = useState('');
  const [newFormat, setNewFormat] = useState<'md' | 'mdx'>('md');
  const [showPreview, setShowPreview] = useState(true);
  const insertAtCursor = useRef<((text: string) => void) | null>(null);
  const fieldKindFor = useFieldKinds();
  const storageKey = draftKey(target.project, target.environment, id);

  // biome-ignore lint/correctness/useExhaustiveDependencies: loadLabels reads only the schema and target listed
  const load = useCallback(async () => {
    if (isNew || !schemaType) return;
    try {
      const loaded = await content.get(target, id);
      // Read before the document is shown: a render with the document and no offered draft yet
      // would count as "back to what the server has" and delete the kept draft.
      const local = await localDrafts.get(storageKey);
      setDoc(loaded);
      setFrontmatter(loaded.frontmatter);
      setBody(loaded.body);
      setBaseRevision(loaded.draftRevision);
      setEditorKey((k) => k + 1);
      setLoadError(null);
      if (local && (!sameJson(local.frontmatter, loaded.frontmatter) || local.body !== loaded.body))
        setOfferedDraft(local);
      else if (local) await localDrafts.remove(storageKey);
      void loadLabels(loaded);
    } catch (caught) {
      setLoadError(toApiError(caught));
    }
  }, [id, isNew, target, schemaType, storageKey]);

  useEffect(() => {
    void load();
  }, [load]);

  /** One request resolves every top-level reference of the document, for readable labels. */
  const loadLabels = async (loaded: ContentDocument) => {
    const names = Object.entries(schemaType?.fields ?? {})
      .filter(([, f]) => (f as FieldMetadata).kind === 'reference' || (f as FieldMetadata).items?.kind === 'reference')
      .map(([name]) => name);
    if (names.length === 0) return;
    try {
      const resolved = await content.get(target, loaded.documentId, { resolve: names });
      const next: Record<string, string> = {};
      for (const name of names) {
        const value = resolved.frontmatter[name];
        for (const item of Array.isArray(value) ? value : [value]) {
          if (item && typeof item === 'object' && 'documentId' in item) {
            const ref = item as { documentId: string; path: string; frontmatter: Frontmatter };
            next[ref.documentId] = `${titleOf(ref)} (${ref.path})`;
          }
        }
      }
      for (const [key, problem] of Object.entries(resolved.resolveErrors ?? {})) {
        next[problem.ref.documentId] = `${problem.ref.documentId}: ${problem.message} (${problem.code}, ${key})`;
      }
      setLabels(next);
    } catch {
      // Labels are a comfort: without them the picker shows the ids.
    }
  };

  const loadedFrontmatter = doc?.frontmatter ?? {};
  const loadedBody = doc?.body ?? '';
  const dirty = isNew
    ? Object.keys(frontmatter).length > 0 || body !== '' || newPath !== ''
    : doc !== null && (!sameJson(frontmatter, loadedFrontmatter) || body !== loadedBody);
  useExitGuard(dirty);

  // Keep unsaved work in this browser while editing (cleared after a confirmed save).
  useEffect(() => {
    if (isNew || !doc || offeredDraft) return;
    if (!dirty) {
      // Back to what the server has: nothing left to keep.
      void localDrafts.remove(storageKey);
      return;
    }
    const timer = window.setTimeout(() => {
      void localDrafts.put({
        key: storageKey,
        frontmatter,
        body,
        draftRevision: baseRevision,
        savedAt: new Date().toISOString(),
      });
    }, 400);
    return () => window.clearTimeout(timer);
  }, [isNew, doc, offeredDraft, dirty, frontmatter, body, baseRevision, storageKey]);

  const clientErrors = useMemo(() => {
    if (!validate || !attempted) return {};
    const result = validate(frontmatter);
    return result.ok ? {} : result.fields;
  }, [validate, frontmatter, attempted]);
  const errors = { ...serverErrors, ...clientErrors };

  const onFieldChange = (path: Path, value: unknown) => {
    setFrontmatter((before) => setAt(before, path, value));
    const key = errorKey(path);
    setServerErrors((before) => Object.fromEntries(Object.entries(before).filter(([k]) => !k.startsWith(key))));
  };

  const save = useCallback(
    async (revision?: number) => {
      if (!schemaType || !validate || saving) return;
      if (!isNew && !dirty && revision === undefined) return;
      setAttempted(true);
      const checked = validate(frontmatter);
      if (!checked.ok) {
        window.requestAnimationFrame(() => document.querySelector<HTMLElement>('.error-summary a')?.focus());
        return;
      }
      setSaving(true);
      setError(null);
      try {
        let saved: ContentDocument;
        if (isNew) {
          saved = await content.create(target, schemaHash, {
            type,
            path: newPath,
            ...(schemaType.localized ? { locale: newLocale } : {}),
            format: newFormat,
            frontmatter,
            body,
          });
        } else {
          saved = await content.update(target, schemaHash, id, {
            frontmatter,
            body,
            draftRevision: revision ?? baseRevision,
          });
        }
        setServerErrors({});
        setAttempted(false);
        setConflict(null);
        setTheirsAside(null);
        setSavedAt(new Date().toLocaleTimeString());
        await localDrafts.remove(storageKey);
        if (isNew) {
          navigate(`/content/${encodeURIComponent(type)}/${saved.documentId}`, { replace: true, force: true });
          return;
        }
        setDoc(saved);
        setFrontmatter(saved.frontmatter);
        if (saved.body !== body) {
          setBody(saved.body);
          setEditorKey((k) => k + 1);
        }
        setBaseRevision(saved.draftRevision);
      } catch (caught) {
        const apiError = toApiError(caught);
        if (apiError.code === 'CONFLICT' && !isNew) {
          try {
            setConflict(await content.get(target, id));
          } catch (again) {
            setError(toApiError(again));
          }
        } else if (apiError.code === 'SCHEMA_HASH_MISMATCH') {
          await studio.reloadSchema().catch(() => undefined);
          setError(
            new ApiError({
              ...apiError,
              message: `${apiError.message} The schema was reloaded: check the form and save again.`,
            }),
          );
        } else {
          const fields = (apiError.details as { fields?: Record<string, string> }).fields;
          if (fields && typeof fields === 'object') {
            setServerErrors(
              Object.fromEntries(Object.entries(fields).filter(([key]) => key.startsWith('frontmatter'))),
            );
          }
          setError(apiError);
        }
      } finally {
        setSaving(false);
      }
    },
    [
      schemaType,
      validate,
      saving,
      isNew,
      dirty,
      frontmatter,
      body,
      target,
      schemaHash,
      type,
      newPath,
      newLocale,
      newFormat,
      id,
      baseRevision,
      storageKey,
      studio,
    ],
  );

  // The shortcut calls the latest save, even when pressed right after a keystroke (before effects run).
  const latestSave = useRef(save);
  latestSave.current = save;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && !event.shiftKey && event.key.toLowerCase() === 's') {
        event.preventDefault();
        void latestSave.current();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const takeTheirs = async (theirs: ContentDocument) => {
    setDoc(theirs);
    setFrontmatter(theirs.frontmatter);
    setBody(theirs.body);
    setBaseRevision(theirs.draftRevision);
    setEditorKey((k) => k + 1);
    setConflict(null);
    setTheirsAside(null);
    await localDrafts.remove(storageKey);
  };

  if (!schemaType) return <Notice kind="warning">This environment has no content type “{type}”.</Notice>;
  if (loadError) {
    return (
      <>
        <h1>{labelOf(type)}</h1>
        <ErrorNotice error={loadError} />
        <Link to={`/content/${encodeURIComponent(type)}`}>Back to the list</Link>
      </>
    );
  }
  if (!isNew && !doc) return <Loading />;

  const heading = isNew ? `New ${labelOf(type).toLowerCase()}` : titleOf({ frontmatter, path: doc?.path ?? '' });
  const format = isNew ? newFormat : (doc?.format ?? 'md');

  return (
    <div className="editor">
      <nav className="breadcrumbs" aria-label="Breadcrumbs">
        <Link to={`/content/${encodeURIComponent(type)}`}>{labelOf(type)}</Link> <span aria-hidden="true">/</span>{' '}
        <span>{isNew ? 'New' : doc?.path}</span>
      </nav>
      <div className="page-header">
        <h1>{heading}</h1>
        <div className="actions">
          {!isNew && doc ? <Slot id="content.editor.header.actions" props={{ doc, dirty }} /> : null}
          <span className="save-state" role="status" aria-live="polite">
            {saving ? 'Saving…' : dirty ? 'Unsaved changes' : savedAt ? `Saved at ${savedAt}` : 'No changes'}
          </span>
          <button type="button" className="primary" disabled={saving || (!dirty && !isNew)} onClick={() => save()}>
            {isNew ? 'Create' : 'Save'}
          </button>
        </div>
      </div>
      {offeredDraft && doc ? (
        <Notice kind="warning">
          <p>
            This browser kept unsaved changes from {new Date(offeredDraft.savedAt).toLocaleString()}
            {offeredDraft.draftRevision !== doc.draftRevision
              ? ` (they started from revision ${offeredDraft.draftRevision}; the server is at ${doc.draftRevision} now, so saving them will ask how to merge)`
              : ''}
            . Changed:{' '}
            {[
              ...changedKeys(offeredDraft.frontmatter, doc.frontmatter).map(labelOf),
              ...(offeredDraft.body !== doc.body ? ['Body'] : []),
            ].join(', ')}
            .
          </p>
          <div className="actions">
            <button
              type="button"
              onClick={() => {
                setFrontmatter(offeredDraft.frontmatter);
                setBody(offeredDraft.body);
                setBaseRevision(offeredDraft.draftRevision);
                setEditorKey((k) => k + 1);
                setOfferedDraft(null);
              }}
            >
              Restore my changes
            </button>
            <button
              type="button"
              onClick={() => {
                void localDrafts.remove(storageKey);
                setOfferedDraft(null);
              }}
            >
              Discard them
            </button>
          </div>
        </Notice>
      ) : null}
      <ErrorNotice error={error} title={isNew ? 'Not created.' : 'Not saved.'} />
      <ErrorSummary errors={errors} />
      {conflict ? (
        <ConflictPanel
          mine={{ frontmatter, body }}
          theirs={conflict}
          busy={saving}
          onKeepMine={() => save(conflict.draftRevision)}
          onTakeTheirs={() => takeTheirs(conflict)}
          onMergeByHand={() => {
            setBaseRevision(conflict.draftRevision);
            setTheirsAside(conflict);
            setConflict(null);
          }}
        />
      ) : null}
      <div className="editor-grid">
        <div className="editor-main">
          {isNew ? (
            <fieldset className="group">
              <legend>Document</legend>
              <div className="field">
                <label htmlFor="new-path">Path</label>
                <small className="hint" id="new-path-hint">
                  Where the file lives, e.g. hello-world or guides/intro.
                </small>
                <input
                  id="new-path"
                  aria-describedby="new-path-hint"
                  value={newPath}
                  required
                  onChange={(e) => setNewPath(e.target.value)}
                  data-field="path"
                />
              </div>
              {schemaType.localized ? (
                <div className="field">
                  <label htmlFor="new-locale">Locale</label>
                  <input
                    id="new-locale"
                    value={newLocale}
                    placeholder="en"
                    onChange={(e) => setNewLocale(e.target.value)}
                  />
                </div>
              ) : null}
              <div className="field">
                <label htmlFor="new-format">Format</label>
                <select
                  id="new-format"
                  value={newFormat}
                  onChange={(e) => setNewFormat(e.target.value as 'md' | 'mdx')}
                >
                  <option value="md">Markdown</option>
                  <option value="mdx">MDX</option>
                </select>
              </div>
            </fieldset>
          ) : null}
          <form
            className="fields"
            aria-label="Fields"
            onSubmit={(e) => {
              e.preventDefault();
              void save();
            }}
          >
            {Object.entries(schemaType.fields).map(([name, field]) => {
              // A module's field kind shows the fields it claims; every other field is built in.
              const kind = fieldKindFor(field);
              return kind ? (
                <ContributedField
                  key={name}
                  kind={kind}
                  name={name}
                  path={[name]}
                  field={field}
                  value={frontmatter[name]}
                  errors={errors}
                  onChange={onFieldChange}
                />
              ) : (
                <FieldInput
                  key={name}
                  name={name}
                  path={[name]}
                  field={field}
                  value={frontmatter[name]}
                  errors={errors}
                  onChange={onFieldChange}
                  referenceLabels={labels}
                />
              );
            })}
          </form>
          {theirsAside ? (
            <section className="theirs" aria-labelledby="theirs-title">
              <h2 id="theirs-title">Their version (revision {theirsAside.draftRevision}), to merge by hand</h2>
              <p className="muted">Copy what you need into your version, then save: your save replaces theirs.</p>
              {changedKeys(frontmatter, theirsAside.frontmatter).map((key) => (
                <div key={key} className="theirs-field">
                  <strong>{labelOf(key)}:</strong> <code>{JSON.stringify(theirsAside.frontmatter[key])}</code>{' '}
                  <button type="button" onClick={() => onFieldChange([key], theirsAside.frontmatter[key])}>
                    Use theirs for {labelOf(key)}
                  </button>
                </div>
              ))}
              <label htmlFor="theirs-body">Their body</label>
              <textarea id="theirs-body" readOnly rows={8} value={theirsAside.body} />
            </section>
          ) : null}
          <div className="body-header">
            <h2 id="body-title">Body ({format === 'mdx' ? 'MDX' : 'Markdown'})</h2>
            <EditorNodes format={format} insert={(text) => insertAtCursor.current?.(text)} />
            <button type="button" aria-pressed={showPreview} onClick={() => setShowPreview(!showPreview)}>
              {showPreview ? 'Hide preview' : 'Show preview'}
            </button>
          </div>
          <div className={showPreview ? 'body-split' : 'body-single'}>
            <MarkdownEditor
              value={body}
              resetKey={`${id}:${editorKey}`}
              label="Body"
              onChange={setBody}
              inserter={insertAtCursor}
              format={format}
            />
            {showPreview ? <Preview body={body} format={format} /> : null}
          </div>
        </div>
        {!isNew && doc ? (
          <EditorSidebar doc={doc} dirty={dirty} localized={schemaType.localized} onChanged={load} />
        ) : null}
      </div>
    </div>
  );
}
