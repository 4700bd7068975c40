/**
 * Unsaved edits kept in this browser (IndexedDB), one per document, tagged with the draftRevision
 * they started from. Offered back, never applied silently; removed after a confirmed save, when the
 * person discards them, and all at once at sign-out. Keys start with the signed-in user's id, so a
 * draft is only ever offered to the person who wrote it.
 */
export interface LocalDraft {
  key: string;
  frontmatter: Record<string, unknown>;
  body: string;
  draftRevision: number;
  savedAt: string;
}

const DB = 'cms-studio';
const STORE = 'drafts';

function open(): Promise<IDBDatabase | null> {
  if (typeof indexedDB === 'undefined') return Promise.resolve(null);
  return new Promise((resolve) => {
    const request = indexedDB.open(DB, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE, { keyPath: 'key' });
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => resolve(null);
  });
}

async function run<T>(mode: IDBTransactionMode, action: (store: IDBObjectStore) => IDBRequest<T>): Promise<T | null> {
  const db = await open();
  if (!db) return null;
  return new Promise((resolve) => {
    const request = action(db.transaction(STORE, mode).objectStore(STORE));
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => resolve(null);
  });
}

export function draftKey(userId: string, project: string, environment: string, documentId: string): string {
  return `${userId}/${project}/${environment}/${documentId}`;
}

export const localDrafts = {
  get: (key: string) => run<LocalDraft | undefined>('readonly', (store) => store.get(key)).then((d) => d ?? null),
  put: (draft: LocalDraft) => run('readwrite', (store) => store.put(draft)),
  remove: (key: string) => run('readwrite', (store) => store.delete(key)),
  /** Forgets every draft kept in this browser (sign-out). */
  clear: () => run('readwrite', (store) => store.clear()),
};
