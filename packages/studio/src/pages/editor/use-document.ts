/**
 * The document being edited, as one hook: what was loaded, what the person changed (frontmatter and
 * body), whether that differs (dirty), saving with its status, the conflict state after a 409, and
 * the draft this browser kept. The editor's views only read it and call its verbs.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { CmsError, type ContentDocument, content, type Target } from '../../api/index.js';
import { compileFrontmatterValidator, type SchemaType } from '../../editor/core-schema.js';
import { type LocalDraft, localDrafts } from '../../editor/local-drafts.js';
import { errorKey, type Path, sameJson, setAt } from '../../editor/paths.js';
import { navigate, useExitGuard } from '../../routing/navigation.js';
import { toApiError } from '../../state/studio-context.js';
import type { LoadedDocument } from './document-queries.js';

type Frontmatter = Record<string, unknown>;
/** How long typing pauses before the unsaved work is kept in this browser. */
const LOCAL_DRAFT_DELAY_MS = 400;
/** How long typing pauses before the live preview's autosave saves the draft. */
const AUTOSAVE_DELAY_MS = 1000;

export interface UseDocumentOptions {
  type: string;
  id: string;
  schemaType: SchemaType;
  target: Target;
  schemaHash: string;
  storageKey: string;
  /** The server copy and the kept draft; null for a new document. */
  loaded: LoadedDocument | null;
  reloadSchema(): Promise<void>;
  /**
   * Save after each pause in typing (the live preview's autosave, for server-rendered sites that reload
   * on each saved change): only a draft the form accepts, never over a conflict or a refusal on screen.
   */
  autosave?: boolean;
}

export function useDocument({
  type,
  id,
  schemaType,
  target,
  schemaHash,
  storageKey,
  loaded,
  reloadSchema,
  autosave = false,
}: UseDocumentOptions) {
  const isNew = loaded === null;
  const validate = useMemo(() => compileFrontmatterValidator(schemaType), [schemaType]);
  const [doc, setDoc] = useState<ContentDocument | null>(loaded?.doc ?? null);
  const [frontmatter, setFrontmatter] = useState<Frontmatter>(loaded?.doc.frontmatter ?? {});
  const [body, setBody] = useState(loaded?.doc.body ?? '');
  const [baseRevision, setBaseRevision] = useState(loaded?.doc.draftRevision ?? 0);
  /** Bumped when the body is replaced from outside the editor (a save, theirs, a restored draft). */
  const [editorKey, setEditorKey] = useState(0);
  const [error, setError] = useState<CmsError | null>(null);
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [attempted, setAttempted] = useState(false);
  const [saving, setSaving] = useState(false);
  const [savedAt, setSavedAt] = useState<string | null>(null);
  const [conflict, setConflict] = useState<ContentDocument | null>(null);
  const [theirsAside, setTheirsAside] = useState<ContentDocument | null>(null);
  const [offeredDraft, setOfferedDraft] = useState<LocalDraft | null>(loaded?.offered ?? null);
  const [newPath, setNewPath] = useState('');
  const [newLocale, setNewLocale] = useState('');
  const [newFormat, setNewFormat] = useState<'md' | 'mdx'>('md');

  const dirty = isNew
    ? Object.keys(frontmatter).length > 0 || body !== '' || newPath !== ''
    : doc !== null && (!sameJson(frontmatter, doc.frontmatter) || body !== doc.body);
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
    }, LOCAL_DRAFT_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [isNew, doc, offeredDraft, dirty, frontmatter, body, baseRevision, storageKey]);

  const clientErrors = useMemo(() => {
    if (!attempted) return {};
    const result = validate(frontmatter);
    return result.ok ? {} : result.fields;
  }, [validate, frontmatter, attempted]);
  const errors = { ...serverErrors, ...clientErrors };

  const changeField = (path: Path, value: unknown) => {
    setFrontmatter((before) => setAt(before, path, value));
    const key = errorKey(path);
    setServerErrors((before) => Object.fromEntries(Object.entries(before).filter(([k]) => !k.startsWith(key))));
  };

  /** Shows a server copy as the new starting point (after a save, publish, or taking theirs). */
  const apply = (fresh: ContentDocument, options: { replaceEdits: boolean }) => {
    setDoc(fresh);
    setBaseRevision(fresh.draftRevision);
    if (!options.replaceEdits) return;
    setFrontmatter(fresh.frontmatter);
    if (fresh.body !== body) {
      setBody(fresh.body);
      setEditorKey((k) => k + 1);
    }
  };

  // What the form holds now, for a save that returns after more typing (an autosave runs mid-typing).
  const edits = useRef({ frontmatter, body });
  edits.current = { frontmatter, body };

  // `values`: what to save instead of the form (the conflict panel's three-way merge, editor/conflict-panel.tsx).
  const save = async (revision?: number, values?: { frontmatter: Frontmatter; body: string }) => {
    if (saving) return;
    if (!isNew && !dirty && revision === undefined) return;
    const toSave = values ?? { frontmatter, body };
    const started = edits.current;
    setAttempted(true);
    if (!validate(toSave.frontmatter).ok) {
      window.requestAnimationFrame(() => document.querySelector<HTMLElement>('.error-summary a')?.focus());
      return;
    }
    setSaving(true);
    setError(null);
    try {
      const saved = isNew
        ? await content.create(target, schemaHash, {
            type,
            path: newPath,
            ...(schemaType.localized ? { locale: newLocale } : {}),
            format: newFormat,
            frontmatter: toSave.frontmatter,
            body: toSave.body,
          })
        : await content.update(target, schemaHash, id, {
            frontmatter: toSave.frontmatter,
            body: toSave.body,
            draftRevision: revision ?? baseRevision,
          });
      setServerErrors({});
      setAttempted(false);
      setConflict(null);
      setTheirsAside(null);
      setSavedAt(new Date().toLocaleTimeString());
      await localDrafts.remove(storageKey);
      if (isNew) {
        await navigate(`/content/${encodeURIComponent(type)}/${saved.documentId}`, { replace: true, force: true });
        return;
      }
      // Edits made while the save was on its way stay on screen (still unsaved); otherwise the server copy
      // becomes the form.
      const since = edits.current;
      apply(saved, {
        replaceEdits: since.body === started.body && sameJson(since.frontmatter, started.frontmatter),
      });
    } catch (caught) {
      await refused(toApiError(caught));
    } finally {
      setSaving(false);
    }
  };

  const refused = async (apiError: CmsError) => {
    if (apiError.code === 'CONFLICT' && !isNew) {
      try {
        setConflict(await content.get(target, id));
      } catch (again) {
        setError(toApiError(again));
      }
    } else if (apiError.code === 'SCHEMA_HASH_MISMATCH') {
      await reloadSchema().catch(() => undefined);
      setError(
        new CmsError({
          ...apiError,
          message: `${apiError.message} The schema was reloaded: check the form and save again.`,
        }),
      );
    } else {
      const fields = (apiError.details as { fields?: Record<string, string> }).fields;
      if (fields && typeof fields === 'object') {
        setServerErrors(Object.fromEntries(Object.entries(fields).filter(([key]) => key.startsWith('frontmatter'))));
      }
      setError(apiError);
    }
  };

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

  // The live preview's autosave: a pause in typing saves a draft the form accepts. Not while a
  // conflict, their version beside the form, a kept draft on offer or a refusal is on screen (a refused
  // autosave waits for a save by hand rather than retrying every pause).
  const edited = useMemo(() => ({ frontmatter, body }), [frontmatter, body]);
  useEffect(() => {
    if (!autosave || isNew || !dirty || saving || conflict || theirsAside || offeredDraft || error) return;
    if (!validate(edited.frontmatter).ok) return;
    const timer = window.setTimeout(() => void latestSave.current(undefined, edited), AUTOSAVE_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [autosave, isNew, dirty, saving, conflict, theirsAside, offeredDraft, error, validate, edited]);

  const takeTheirs = async (theirs: ContentDocument) => {
    apply(theirs, { replaceEdits: true });
    setConflict(null);
    setTheirsAside(null);
    await localDrafts.remove(storageKey);
  };

  return {
    isNew,
    doc,
    frontmatter,
    body,
    setBody,
    editorKey,
    dirty,
    errors,
    error,
    saving,
    savedAt,
    conflict,
    theirsAside,
    offeredDraft,
    newDocument: { path: newPath, locale: newLocale, format: newFormat, setNewPath, setNewLocale, setNewFormat },
    changeField,
    save,
    takeTheirs,
    /** Keeps mine: saves over their revision. */
    /** Saves the three-way merge of base, mine and theirs over their revision. */
    keepMine: (theirs: ContentDocument, merged: { frontmatter: Frontmatter; body: string }) =>
      save(theirs.draftRevision, merged),
    /** Their version goes beside the form; my save will replace it. */
    mergeByHand: (theirs: ContentDocument) => {
      setBaseRevision(theirs.draftRevision);
      setTheirsAside(theirs);
      setConflict(null);
    },
    restoreDraft: () => {
      if (!offeredDraft) return;
      setFrontmatter(offeredDraft.frontmatter);
      setBody(offeredDraft.body);
      setBaseRevision(offeredDraft.draftRevision);
      setEditorKey((k) => k + 1);
      setOfferedDraft(null);
    },
    discardDraft: () => {
      void localDrafts.remove(storageKey);
      setOfferedDraft(null);
    },
    /** A fresh server copy after a publish, unpublish or restore: the edits on screen are replaced only when there are none. */
    refreshed: (fresh: ContentDocument) => apply(fresh, { replaceEdits: !dirty }),
  };
}

export type DocumentState = ReturnType<typeof useDocument>;
