import { lazy, Suspense, useMemo, useRef, useState } from 'react';
import type { ContentDocument } from '../api/index.js';
import type { BodyEditorHandle } from '../editor/body-editor-handle.js';
import { BodyToolbar } from '../editor/body-toolbar.js';
import { type FieldMetadata, listReferenceFields, type SchemaType } from '../editor/core-schema.js';
import { ErrorSummary } from '../editor/error-summary.js';
import { FieldInput } from '../editor/field-form.js';
import { useImageUpload } from '../editor/image-upload.js';
import { focusPreviewTarget } from '../editor/live-preview/focus-target.js';
import { LivePreviewPanel } from '../editor/live-preview/live-preview-panel.js';
import { draftKey } from '../editor/local-drafts.js';
import { MarkdownEditor } from '../editor/markdown-editor.js';
import { MissingTranslations } from '../editor/missing-translations.js';
import { PresenceNotice } from '../editor/presence.js';
import { Preview } from '../editor/preview.js';
import { TranslationCompare } from '../editor/translation-compare.js';
import { ContributedField, EditorNodes, useFieldKinds } from '../extensions/contributed.js';
import { Slot } from '../extensions/slot.js';
import { Link } from '../routing/navigation.js';
import { toApiError, useStudio } from '../state/studio-context.js';
import { labelOf, titleOf } from '../ui/labels.js';
import { ErrorNotice, Loading, Notice } from '../ui/notice.js';
import { type LoadedDocument, useDocumentQuery, useReferenceLabels } from './editor/document-queries.js';
import { NewDocumentFields } from './editor/new-document-fields.js';
import { OfferedDraftNotice } from './editor/offered-draft-notice.js';
import { PublishControl } from './editor/publish-control.js';
import { TheirsAside } from './editor/theirs-aside.js';
import { useDocument } from './editor/use-document.js';
import { FOCUS_MODE_SHORTCUT, useWritingLayout } from './editor/use-writing-layout.js';
import { EditorSidebar } from './editor-sidebar.js';
import './editor/editor-layout.css';

/** The conflict panel and its three-way merge (diff3, YAML) load only when a save meets a conflict. */
const ConflictPanel = lazy(async () => ({ default: (await import('../editor/conflict-panel.js')).ConflictPanel }));

/** `/content/:type/:id` (and `/content/:type/new`): reads the document, then hands it to the editor. */
export function EditorPage({ type, id }: { type: string; id: string }) {
  const studio = useStudio();
  const schemaType = studio.types.find((t) => t.name === type);
  const isNew = id === 'new';
  // Keyed by value: a reloaded context must not reload the document over the person's edits.
  const target = useMemo(
    () => ({ project: studio.target.project, environment: studio.target.environment }),
    [studio.target.project, studio.target.environment],
  );
  const storageKey = draftKey(studio.bootstrap.me.principalId, target.project, target.environment, id);
  const query = useDocumentQuery(target, id, storageKey, !isNew && schemaType !== undefined);

  if (!schemaType) return <Notice kind="warning">This environment has no content type “{type}”.</Notice>;
  if (query.error) {
    return (
      <>
        <h1>{labelOf(type)}</h1>
        <ErrorNotice error={toApiError(query.error)} />
        <Link to={`/content/${encodeURIComponent(type)}`}>Back to the list</Link>
      </>
    );
  }
  if (!isNew && !query.data) return <Loading />;
  return (
    <DocumentEditor
      type={type}
      id={id}
      schemaType={schemaType}
      target={target}
      storageKey={storageKey}
      loaded={isNew ? null : (query.data as LoadedDocument)}
      refetch={async () => (await query.refetch()).data?.doc ?? null}
    />
  );
}

/** The form, the body, save, conflicts, publish: the document hook's state, shown. */
function DocumentEditor({
  type,
  id,
  schemaType,
  target,
  storageKey,
  loaded,
  refetch,
}: {
  type: string;
  id: string;
  schemaType: SchemaType;
  target: { project: string; environment: string };
  storageKey: string;
  loaded: LoadedDocument | null;
  refetch(): Promise<ContentDocument | null>;
}) {
  const studio = useStudio();
  const [livePreview, setLivePreview] = useState(false);
  const [autosave, setAutosave] = useState(false);
  const editing = useDocument({
    type,
    id,
    schemaType,
    target,
    schemaHash: studio.schemaHash,
    storageKey,
    loaded,
    reloadSchema: studio.reloadSchema,
    autosave: livePreview && autosave,
  });
  const { doc, isNew, frontmatter, body, dirty, errors, saving, conflict, theirsAside, offeredDraft } = editing;
  const layout = useWritingLayout();
  const [showPreview, setShowPreview] = useState(true);
  const [cursorLine, setCursorLine] = useState(1);
  const bodyEditor = useRef<BodyEditorHandle | null>(null);
  const images = useImageUpload(bodyEditor, body);
  const fieldKindFor = useFieldKinds();
  const referenceFields = useMemo(
    () =>
      Object.entries(schemaType.fields)
        .filter(
          ([, f]) => (f as FieldMetadata).kind === 'reference' || (f as FieldMetadata).items?.kind === 'reference',
        )
        .map(([name]) => name),
    [schemaType],
  );
  /** Every path `resolve=` accepts (nested objects, arrays of references): the live preview resolves them all. */
  const referencePaths = useMemo(() => listReferenceFields(schemaType).map((field) => field.path), [schemaType]);
  const labels = useReferenceLabels(target, doc?.documentId ?? null, referenceFields);

  /** After a publish, unpublish or restore: the server copy again (edits stay when there are any). */
  const onChanged = async () => {
    const fresh = await refetch();
    if (fresh) editing.refreshed(fresh);
  };

  const heading = isNew ? `New ${labelOf(type).toLowerCase()}` : titleOf({ frontmatter, path: doc?.path ?? '' });
  const format = isNew ? editing.newDocument.format : (doc?.format ?? 'md');
  const classes = ['editor', livePreview ? 'with-live-preview' : '', layout.detailsFolded ? 'details-folded' : ''];

  return (
    <div className={classes.filter(Boolean).join(' ')}>
      <nav className="breadcrumbs" aria-label="Breadcrumbs">
        <Link to={`/content/${encodeURIComponent(type)}`}>{labelOf(type)}</Link> <span aria-hidden="true">/</span>{' '}
        <span>{isNew ? 'New' : doc?.path}</span>
      </nav>
      <div className="page-header editor-bar">
        <h1>{heading}</h1>
        <div className="actions">
          {!isNew && doc ? <Slot id="content.editor.header.actions" props={{ doc, dirty }} /> : null}
          {!isNew && doc ? (
            <button type="button" aria-pressed={livePreview} onClick={() => setLivePreview(!livePreview)}>
              Live preview
            </button>
          ) : null}
          <button
            type="button"
            aria-pressed={layout.focusMode}
            aria-keyshortcuts={FOCUS_MODE_SHORTCUT.aria}
            title={`Focus mode (${FOCUS_MODE_SHORTCUT.hint})`}
            onClick={layout.toggleFocusMode}
          >
            Focus mode
          </button>
          <span className="save-state" role="status" aria-live="polite">
            {saving
              ? 'Saving…'
              : dirty
                ? 'Unsaved changes'
                : editing.savedAt
                  ? `Saved at ${editing.savedAt}`
                  : 'No changes'}
          </span>
          <button
            type="button"
            className="primary"
            disabled={saving || (!dirty && !isNew)}
            onClick={() => editing.save()}
          >
            {isNew ? 'Create' : 'Save'}
          </button>
          {!isNew && doc ? <PublishControl doc={doc} dirty={dirty} onChanged={onChanged} /> : null}
        </div>
      </div>
      {!isNew && doc ? <PresenceNotice target={target} documentId={doc.documentId} /> : null}
      {!isNew && doc && schemaType.localized ? (
        <>
          <MissingTranslations target={target} documentId={doc.documentId} />
          <TranslationCompare target={target} doc={doc} />
        </>
      ) : null}
      {offeredDraft && doc ? (
        <OfferedDraftNotice
          draft={offeredDraft}
          doc={doc}
          onRestore={editing.restoreDraft}
          onDiscard={editing.discardDraft}
        />
      ) : null}
      <ErrorNotice error={editing.error} title={isNew ? 'Not created.' : 'Not saved.'} />
      <ErrorSummary errors={errors} />
      {conflict ? (
        <Suspense fallback={<Loading />}>
          <ConflictPanel
            base={doc ?? conflict}
            mine={{ frontmatter, body }}
            theirs={conflict}
            busy={saving}
            onKeepMine={(merged) => editing.keepMine(conflict, merged)}
            onTakeTheirs={() => editing.takeTheirs(conflict)}
            onMergeByHand={() => editing.mergeByHand(conflict)}
          />
        </Suspense>
      ) : null}
      <div className="editor-grid">
        <div className="editor-main">
          {isNew ? (
            <NewDocumentFields state={editing.newDocument} localized={schemaType.localized} target={target} />
          ) : null}
          <form
            className="fields"
            aria-label="Fields"
            onSubmit={(e) => {
              e.preventDefault();
              void editing.save();
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
                  onChange={editing.changeField}
                />
              ) : (
                <FieldInput
                  key={name}
                  name={name}
                  path={[name]}
                  field={field}
                  value={frontmatter[name]}
                  errors={errors}
                  onChange={editing.changeField}
                  referenceLabels={labels}
                />
              );
            })}
          </form>
          {theirsAside ? (
            <TheirsAside theirs={theirsAside} frontmatter={frontmatter} onUseTheirs={editing.changeField} />
          ) : null}
          <div className="body-header">
            <h2 id="body-title">Body ({format === 'mdx' ? 'MDX' : 'Markdown'})</h2>
            <EditorNodes format={format} insert={(text) => bodyEditor.current?.replaceSelection(text)} />
            <button type="button" aria-pressed={showPreview} onClick={() => setShowPreview(!showPreview)}>
              {showPreview ? 'Hide preview' : 'Show preview'}
            </button>
            {!isNew && doc ? (
              <button type="button" aria-pressed={layout.detailsFolded} onClick={layout.toggleDetails}>
                {layout.detailsFolded ? 'Show details' : 'Hide details'}
              </button>
            ) : null}
          </div>
          <BodyToolbar editor={bodyEditor} onPickImages={(files) => images.upload(files, null)} />
          {images.status}
          <div className={showPreview ? 'body-split' : 'body-single'}>
            <MarkdownEditor
              value={body}
              resetKey={`${id}:${editing.editorKey}`}
              label="Body"
              onChange={editing.setBody}
              format={format}
              handle={bodyEditor}
              onImageFiles={images.upload}
              onCursorLine={setCursorLine}
            />
            {showPreview ? <Preview body={body} format={format} cursorLine={cursorLine} /> : null}
          </div>
        </div>
        {!isNew && doc && !layout.detailsFolded ? (
          <EditorSidebar doc={doc} dirty={dirty} localized={schemaType.localized} onChanged={onChanged} />
        ) : null}
      </div>
      {livePreview && doc ? (
        <LivePreviewPanel
          target={target}
          doc={doc}
          frontmatter={frontmatter}
          body={body}
          referenceFields={referencePaths}
          autosave={autosave}
          onAutosaveChange={setAutosave}
          onFocus={(message) => focusPreviewTarget(message, (line) => bodyEditor.current?.moveToLine(line))}
        />
      ) : null}
    </div>
  );
}
