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
import { type QueryObserverResult, useQueries, useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { type CmsError, type ContentDocument, content, type Target } from '../../api/index.js';
import { useProjectSettings } from '../../state/shared-queries.js';
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

const NO_PREVIEW_URL = 'No preview address is set for this project: an admin sets previewUrl in the project settings.';

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

/** The frame's address and its first token: fixed for one opening, so the frame never reloads under the person. */
interface Opening {
  src: string;
  origin: string | null;
  expiresAt: string;
}

/** A renewal's outcome, for the opening (token answer) it was asked for. */
interface Renewal {
  opening: Opening;
  /** The newest renewed token (told again to a page that loads anew, such as a server-rendered one reloading). */
  token: string | null;
  expiresAt: string | null;
  error: CmsError | null;
}

/** The targets fetched for references changed in the editor; a pending or refused one is left out (sent as the id). */
function fetchedTargets(results: QueryObserverResult<ResolvedReference>[]): ResolvedReference[] {
  return results.flatMap((result) => (result.data ? [result.data] : []));
}

export function useLivePreview({ target, doc, frontmatter, body, referenceFields, release, open, onFocus }: Options) {
  const frame = useRef<HTMLIFrameElement | null>(null);
  const [renewals, setRenewals] = useState(0);
  const [renewal, setRenewal] = useState<Renewal | null>(null);
  const sequence = useRef(0);
  const focus = useRef(onFocus);
  focus.current = onFocus;

  // The setting is read afresh when the preview opens (a cached copy may predate an admin's change).
  const settings = useProjectSettings(target.project, open);
  const settingsError = settings.isFetchedAfterMount ? settings.error : null;
  const fresh = settings.isFetchedAfterMount && !settingsError ? settings.data : undefined;
  const chosen = fresh ? (fresh.previewUrls?.[doc.type] ?? fresh.previewUrl) : null;
  const template = chosen && !previewUrlTemplateProblem(chosen) ? chosen : null;

  const issueToken = useCallback(
    (address: string) => {
      const noToken = expandPreviewUrl(address, { path: doc.path, locale: doc.locale, type: doc.type, token: '' });
      return content.previewToken(target, doc.documentId, noToken, release);
    },
    [target, doc.documentId, doc.path, doc.locale, doc.type, release],
  );

  // Opening (again when another release is chosen): a token and the read the messages start from, once
  // per opening. Keyed by document, release and address only: a save renews the token below instead, and
  // both entries go when the panel closes, so opening it again reads afresh.
  const opened = { enabled: open && template !== null, staleTime: Number.POSITIVE_INFINITY, gcTime: 0 };
  const token = useQuery({
    ...opened,
    queryKey: ['live-preview-token', target.project, target.environment, doc.documentId, release, template],
    queryFn: async (): Promise<Opening> => {
      const address = template as string;
      const issued = await issueToken(address);
      const values = { path: doc.path, locale: doc.locale, type: doc.type, token: issued.token };
      return { src: expandPreviewUrl(address, values), origin: previewUrlOrigin(address), expiresAt: issued.expiresAt };
    },
  });
  const read = useQuery({
    ...opened,
    queryKey: ['live-preview-read', target.project, target.environment, doc.documentId, release, referenceFields],
    queryFn: () => content.get(target, doc.documentId, { resolve: [...referenceFields], release }),
  });
  // The frame exists once both are in; the messages start from the read from then on.
  const opening = token.data && read.data ? token.data : null;
  const startingRead = opening ? read.data : undefined;
  const renewed = renewal?.opening === opening ? renewal : null;

  // A reference changed in the editor is resolved as the read would (one read per target), then sent again.
  const readTargets = useMemo(
    () => (read.data ? resolvedTargetsOf(read.data, referenceFields) : new Map<string, ResolvedReference>()),
    [read.data, referenceFields],
  );
  const missing = read.data ? unresolvedIds(frontmatter, referenceFields, readTargets) : [];
  const fetched = useQueries({
    queries: missing.map((id) => ({
      queryKey: ['live-preview-reference', target.project, target.environment, release, id],
      // A missing or forbidden target is a refused query: sent as the id, as the read reports it.
      queryFn: async (): Promise<ResolvedReference> => {
        const found = await content.get(target, id, { release });
        return { documentId: id, type: found.type, path: found.path, frontmatter: found.frontmatter };
      },
      enabled: open,
    })),
    combine: fetchedTargets,
  });
  const known = useMemo(() => {
    const all = new Map(readTargets);
    for (const found of fetched) all.set(found.documentId, found);
    return all;
  }, [readTargets, fetched]);

  const origin = opening?.origin ?? null;
  const post = useCallback(
    (message: StudioToSiteMessage) => {
      // Only ever to the previewUrl's origin: a frame that navigated elsewhere gets nothing.
      if (origin) frame.current?.contentWindow?.postMessage(message, origin);
    },
    [origin],
  );

  const renew = useCallback(async () => {
    if (!opening || !template) return;
    try {
      const issued = await issueToken(template);
      post({ type: PREVIEW_MESSAGE_TYPE, kind: 'token', token: issued.token, expiresAt: issued.expiresAt });
      setRenewal({ opening, token: issued.token, expiresAt: issued.expiresAt, error: null });
      setRenewals((n) => n + 1);
    } catch (caught) {
      setRenewal((last) => ({
        opening,
        token: last?.opening === opening ? last.token : null,
        expiresAt: last?.opening === opening ? last.expiresAt : null,
        error: toApiError(caught),
      }));
    }
  }, [opening, template, issueToken, post]);

  const openingError = settingsError ?? token.error ?? read.error;
  const state: LivePreviewState = {
    src: opening?.src ?? null,
    origin,
    expiresAt: opening ? (renewed?.expiresAt ?? opening.expiresAt) : null,
    renewals,
    error: renewed?.error ?? (openingError ? toApiError(openingError) : null),
    notice: fresh && !template ? NO_PREVIEW_URL : null,
  };

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
    if (!startingRead) return;
    sequence.current += 1;
    const edited = { frontmatter, body };
    // In the draft's view, its own fields as last saved (a save moves draftRevision and updatedAt).
    const document = composePreviewDocument(startingRead, edited, referenceFields, known, release ? null : doc);
    post({ type: PREVIEW_MESSAGE_TYPE, kind: 'document', document, sequence: sequence.current });
  }, [startingRead, frontmatter, body, referenceFields, known, post, release, doc]);

  // Every change goes out at once (no debounce: the frame shows each keystroke), before the Studio
  // paints rather than after (a layout effect), which saves the frame a passive effect waits for.
  // A reference target that arrives changes `known`, so the document goes out again with it.
  useLayoutEffect(() => {
    if (open) postDocument();
  }, [open, postDocument]);

  // Messages from the frame: only from its window and the previewUrl's origin. A page that (re)loads
  // gets the document and, once there is one, the newest renewed token: a server-rendered page reloaded
  // by a save has a token that ends with the first one, and follows its stream with the renewed one.
  const renewedToken = renewed?.token ?? null;
  const renewedUntil = renewed?.expiresAt ?? null;
  useEffect(() => {
    if (!open || !state.origin) return;
    const onMessage = (event: MessageEvent) => {
      if (event.origin !== state.origin || event.source !== frame.current?.contentWindow) return;
      if (!isPreviewMessage(event.data)) return;
      if (event.data.kind === 'ready') {
        postDocument();
        if (renewedToken && renewedUntil) {
          post({ type: PREVIEW_MESSAGE_TYPE, kind: 'token', token: renewedToken, expiresAt: renewedUntil });
        }
      } else if (event.data.kind === 'focus') focus.current(event.data);
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [open, state.origin, postDocument, post, renewedToken, renewedUntil]);

  return { frame, state };
}
