/**
 * The translation group a new file joins: the group of a tracked document with the same type and
 * path in another locale. Indexed once per run (a lookup per file, not a scan of the manifest per
 * file: on 10,000 new files that scan was most of a push's local time), and kept current as
 * documents are created.
 */
import type { DocumentKey } from './file-naming.js';
import type { ManifestEntry } from './manifest.js';

const keyOf = (type: string, path: string) => `${type}\u0000${path}`;

export class TranslationGroups {
  /** type + path -> locale -> group id. */
  private readonly byKey = new Map<string, Map<string, string>>();

  constructor(entries: Iterable<ManifestEntry>) {
    for (const entry of entries) this.record(entry);
  }

  /** Records a document written (created, updated or pulled). */
  record(entry: Pick<ManifestEntry, 'type' | 'path' | 'locale' | 'translationGroupId'>): void {
    if (!entry.translationGroupId) return;
    const key = keyOf(entry.type, entry.path);
    let locales = this.byKey.get(key);
    if (!locales) {
      locales = new Map();
      this.byKey.set(key, locales);
    }
    if (!locales.has(entry.locale)) locales.set(entry.locale, entry.translationGroupId);
  }

  /** Forgets a document deleted (its group may be gone with it). */
  forget(entry: Pick<ManifestEntry, 'type' | 'path' | 'locale' | 'translationGroupId'>): void {
    const locales = this.byKey.get(keyOf(entry.type, entry.path));
    if (locales?.get(entry.locale) === entry.translationGroupId) locales?.delete(entry.locale);
  }

  /** The group of a sibling in another locale, if one is tracked. */
  groupFor(key: Pick<DocumentKey, 'type' | 'path' | 'locale'>): string | undefined {
    const locales = this.byKey.get(keyOf(key.type, key.path));
    if (!locales) return undefined;
    for (const [locale, group] of locales) if (locale !== key.locale) return group;
    return undefined;
  }
}
