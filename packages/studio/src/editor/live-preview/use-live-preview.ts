/**
 * The editor's "Live preview" (docs/live-preview.md): the site at the project's `previewUrl` in a frame,
 * fed the draft on every change by `postMessage` (to the site's origin only), with a preview token that
 * is renewed before it expires and after each save (a saved draft needs a token for its new revision).
 */
import { expandPreviewUrl, previewUrlOrigin, previewUrlTemplateProblem } from '@cms/core/preview-url';
import {
  isPreviewMessage,
  PREVIEW_MESSAGE_TYPE,
  type PreviewFocusMessage,
  type StudioToSiteMessage,
} from '@cms/sdk/preview';
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { type CmsError, type ContentDocument, content, projects, type Target } from '../../api/index.js';
import { toApiError } from '../../state/studio-context.js';
import {
  composePreviewDocument,
  type ResolvedReference,
  resolvedTargetsOf,
  unresolvedIds,
} from './preview-document.js';

/** Renew this long before expiry: a fifth of the token's life, at most a minute. */
const RENEW_SHARE = 0.2;
const RENEW_LEAD_MAX_MS = 60_000;

/** What the panel shows. */
export interface LivePreviewState {
  /** The frame's address (with the first token), once known. */
  src: string | null;
  origin: string | null;
  expiresAt: string | null;
  renewals: number;
  error: CmsError | null;
  /** Why there is nothing to show (no previewUrl set). */
  notice: string | null;
}

interface Options {
  target: Target;
  doc: ContentDocument;
  frontmatter: Record<string, unknown>;
  body: string;
  referenceFields: readonly string[];
  /** The release whose view the site shows (its token and reads are `release=<id>`), or null for the draft. */
  release: string | null;
  open: boolean;
  onFocus(message: PreviewFocusMessage): void;
}

export function useLivePreview({ target, doc, frontmatter, body, referenceFields, release, open, onFocus }: Options) {
  const frame = useRef<HTMLIFrameElement | null>(null);
  const [state, setState] = useState<LivePreviewState>({
    src: null,
    origin: null,
    expiresAt: null,
    renewals: 0,
    error: null,
    notice: null,
  });
  const [read, setRead] = useState<ContentDocument | null>(null);
  const known = useRef(new Map<string, ResolvedReference>());
  const [knownVersion, setKnownVersion] = useState(0);
  const sequence = useRef(0);
  const template = useRef<string | null>(null);
  const focus = useRef(onFocus);
  focus.current = onFocus;

  const post = useCallback((message: StudioToSiteMessage) => {
    const origin = template.current ? previewUrlOrigin(template.current) : null;
    // Only ever to the previewUrl's origin: a frame that navigated elsewhere gets nothing.
    if (origin) frame.current?.contentWindow?.postMessage(message, origin);
  }, []);

  const issueToken = useCallback(async () => {
    const address = template.current as string;
    const noToken = expandPreviewUrl(address, { path: doc.path, locale: doc.locale, type: doc.type, token: '' });
    return content.previewToken(target, doc.documentId, noToken, release);
  }, [target, doc.documentId, doc.path, doc.locale, doc.type, release]);

  // Opening (again when another release is chosen): the setting, a token, and the read the messages start from.
  // biome-ignore lint/correctness/useExhaustiveDependencies: opened once per document; saves renew below
  useEffect(() => {
    if (!open) return;
    let cancelled = false;
    setRead(null);
    setState((s) => ({ ...s, src: null, error: null }));
    void (async () => {
      try {
        const settings = await projects.settings(target);
        const chosen = settings.previewUrls?.[doc.type] ?? settings.previewUrl;
        if (!chosen || previewUrlTemplateProblem(chosen)) {
          setState((s) => ({
            ...s,
            notice: 'No preview address is set for this project: an admin sets previewUrl in the project settings.',
          }));
          return;
        }
        template.current = chosen;
        const [issued, loaded] = await Promise.all([
          issueToken(),
          content.get(target, doc.documentId, { resolve: [...referenceFields], release }),
        ]);
        if (cancelled) return;
        known.current = resolvedTargetsOf(loaded, referenceFields);
        setRead(loaded);
        const values = { path: doc.path, locale: doc.locale, type: doc.type, token: issued.token };
        setState((s) => ({
          ...s,
          src: expandPreviewUrl(chosen, values),
          origin: previewUrlOrigin(chosen),
          expiresAt: issued.expiresAt,
          error: null,
          notice: null,
        }));
      } catch (caught) {
        if (!cancelled) setState((s) => ({ ...s, error: toApiError(caught) }));
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [open, doc.documentId, release]);

  const renew = useCallback(async () => {
    try {
      const issued = await issueToken();
      post({ type: PREVIEW_MESSAGE_TYPE, kind: 'token', token: issued.token, expiresAt: issued.expiresAt });
      setState((s) => ({ ...s, expiresAt: issued.expiresAt, renewals: s.renewals + 1, error: null }));
    } catch (caught) {
      setState((s) => ({ ...s, error: toApiError(caught) }));
    }
  }, [issueToken, post]);

  // Renew before expiry.
  useEffect(() => {
    if (!open || !state.expiresAt) return;
    const left = new Date(state.expiresAt).getTime() - Date.now();
    const lead = Math.min(RENEW_LEAD_MAX_MS, left * RENEW_SHARE);
    const timer = window.setTimeout(() => void renew(), Math.max(0, left - lead));
    return () => window.clearTimeout(timer);
  }, [open, state.expiresAt, renew]);

  // A save moves the draft revision: the site needs a token for the new one.
  const savedRevision = useRef(doc.draftRevision);
  useEffect(() => {
    if (!open || !state.src || savedRevision.current === doc.draftRevision) return;
    savedRevision.current = doc.draftRevision;
    void renew();
  }, [open, state.src, doc.draftRevision, renew]);

  const postDocument = useCallback(() => {
    if (!read) return;
    sequence.current += 1;
    const document = composePreviewDocument(read, { frontmatter, body }, referenceFields, known.current);
    post({ type: PREVIEW_MESSAGE_TYPE, kind: 'document', document, sequence: sequence.current });
  }, [read, frontmatter, body, referenceFields, post]);

  // Every change goes out at once (no debounce: the frame shows each keystroke), before the Studio
  // paints rather than after (a layout effect), which saves the frame a passive effect waits for.
  // biome-ignore lint/correctness/useExhaustiveDependencies: knownVersion re-sends once a reference resolves
  useLayoutEffect(() => {
    if (open) postDocument();
  }, [open, postDocument, knownVersion]);

  // A reference changed in the editor is resolved as the read would, then the document is sent again.
  useEffect(() => {
    if (!open || !read) return;
    const missing = unresolvedIds(frontmatter, referenceFields, known.current);
    if (missing.length === 0) return;
    let cancelled = false;
    void Promise.all(
      missing.map((id) =>
        content.get(target, id, { release }).then(
          (found) =>
            known.current.set(id, {
              documentId: id,
              type: found.type,
              path: found.path,
              frontmatter: found.frontmatter,
            }),
          () => undefined, // missing or forbidden: sent as the id, as the read reports it
        ),
      ),
    ).then(() => {
      if (!cancelled) setKnownVersion((v) => v + 1);
    });
    return () => {
      cancelled = true;
    };
  }, [open, read, frontmatter, referenceFields, target, release]);

  // Messages from the frame: only from its window and the previewUrl's origin.
  useEffect(() => {
    if (!open || !state.origin) return;
    const onMessage = (event: MessageEvent) => {
      if (event.origin !== state.origin || event.source !== frame.current?.contentWindow) return;
      if (!isPreviewMessage(event.data)) return;
      if (event.data.kind === 'ready') postDocument();
      else if (event.data.kind === 'focus') focus.current(event.data);
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [open, state.origin, postDocument]);

  return { frame, state };
}
