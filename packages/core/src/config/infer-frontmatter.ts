/**
 * Type-level reading of a `defineType` result: the frontmatter its documents carry on read.
 * Reference fields hold a document id string, except those named in `Resolved` (the `resolve`
 * paths of the request, dot notation for nested objects), which hold the resolved object, or null
 * when resolution failed (the reason is in `resolveErrors`).
 * @example
 * type Post = InferFrontmatter<typeof post>;                 // author: string | undefined
 * type WithAuthor = InferFrontmatter<typeof post, 'author'>; // author: ResolvedDocument<...> | null
 */
import type { FieldBuilder, FieldMap, NamedType, ReferenceValue } from './field-builders.js';

/** A resolved reference (spec "Resolved reference object"): replaces the id string in frontmatter. */
export interface ResolvedDocument<Frontmatter = Record<string, unknown>> {
  documentId: string;
  type: string;
  path: string;
  frontmatter: Frontmatter;
}

type Join<Prefix extends string, Name extends string> = Prefix extends '' ? Name : `${Prefix}.${Name}`;

type TargetFrontmatter<Target> = Target extends { readonly fields: infer F extends FieldMap }
  ? InferFields<F, never, ''>
  : Record<string, unknown>;

type ValueOf<V, Path extends string, Resolved extends string> =
  V extends ReferenceValue<infer Target>
    ? Path extends Resolved
      ? ResolvedDocument<TargetFrontmatter<Target>> | null
      : string
    : V extends (infer Item extends FieldBuilder)[]
      ? ItemValue<Item, Path, Resolved>[]
      : V extends FieldMap
        ? InferFields<V, Resolved, Path>
        : V;

type ItemValue<Item extends FieldBuilder, Path extends string, Resolved extends string> =
  Item extends FieldBuilder<infer V, boolean, boolean> ? ValueOf<V, Path, Resolved> : never;

type FieldValue<B, Path extends string, Resolved extends string> =
  B extends FieldBuilder<infer V, boolean, infer N>
    ? ValueOf<V, Path, Resolved> | (N extends true ? null : never)
    : unknown;

type RequiredKeys<F extends FieldMap> = {
  [K in keyof F]: F[K] extends FieldBuilder<unknown, infer R, boolean> ? (R extends true ? K : never) : never;
}[keyof F];

type Simplify<T> = { [K in keyof T]: T[K] } & {};

type InferFields<F extends FieldMap, Resolved extends string, Prefix extends string> = Simplify<
  {
    [K in RequiredKeys<F> & string]: FieldValue<F[K], Join<Prefix, K>, Resolved>;
  } & {
    [K in Exclude<keyof F, RequiredKeys<F>> & string]?: FieldValue<F[K], Join<Prefix, K>, Resolved>;
  }
>;

/** The frontmatter of a type's documents on read, with the `Resolved` reference paths resolved. */
export type InferFrontmatter<T extends { readonly fields: FieldMap }, Resolved extends string = never> = InferFields<
  T['fields'],
  Resolved,
  ''
>;

/** The name of a content type given as a `defineType` result or a name. */
export type TypeNameOf<T> = T extends NamedType ? T['name'] : T extends string ? T : string;
