/**
 * What each kind of Studio contribution receives from the page that renders it: the contract
 * between the Studio's pages and the components modules contribute (docs/studio.md "How a module
 * adds a Studio contribution").
 */
import type { StudioSlot } from '@cms/core';
import type { ArrayItems, FieldMetadata } from '@cms/core/frontmatter';
import type { ContentDocument } from '../api/index.js';

/** A place in the frontmatter, key by key: `['seo', 'title']`, `['tags', 0]` (the editor's `Path`). */
export type Path = readonly (string | number)[];

/** Props of a slot widget, per slot. */
export interface SlotProps {
  'dashboard.main': Record<string, never>;
  'content.list.toolbar': { type: string };
  'content.editor.header.actions': { doc: ContentDocument; dirty: boolean };
  'content.editor.sidebar': { doc: ContentDocument; dirty: boolean; onChanged(): Promise<void> };
  'settings.general': Record<string, never>;
}
export type SlotWidgetProps<S extends StudioSlot> = SlotProps[S] & { title: string };

/** Props of a field kind: one top-level frontmatter field of the document being edited. */
export interface FieldKindProps {
  name: string;
  path: Path;
  field: FieldMetadata | (ArrayItems & { required?: boolean; nullable?: boolean });
  value: unknown;
  /** Validation messages by field key (`frontmatter.title`), client and server. */
  errors: Record<string, string>;
  onChange(path: Path, value: unknown): void;
}

/** Props of an editor node: insert text at the body's cursor. */
export interface EditorNodeProps {
  label: string;
  format: 'md' | 'mdx';
  insert(text: string): void;
}

/** Props of an action override, per overridable action. */
export interface ActionOverrideProps {
  'content.publish': { doc: ContentDocument; dirty: boolean; onChanged(): Promise<void> };
}

/** Props of a route or settings panel: none, they read the Studio state themselves. */
export type PageProps = Record<string, never>;
