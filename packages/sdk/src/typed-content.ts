/**
 * Typing of documents by content type. A client's `Types` is either the `CmsTypes` map that
 * `cms types` generates, or a list of `defineType` results (a config's types). Either way
 * `content.list/get/iterate` type `frontmatter` by `type`, with the references named in `resolve`
 * typed as the resolved documents.
 * @example
 * import type { CmsTypes } from './cms.types.js';
 * const cms = createClient<CmsTypes>({ baseUrl });
 * const page = await cms.content.list({ type: 'post', resolve: ['author'] });
 * page.data[0]?.frontmatter.author?.frontmatter.name; // typed
 */
import type { ContentType, Document, InferFrontmatter, ResolvedDocument } from '@cms/core';

/** One content type as `cms types` describes it in `CmsTypes`. */
export interface GeneratedType {
  frontmatter: object;
  /** Reference fields: dot path (as `resolve` names it) to the target type's name. */
  references: object;
  localized: boolean;
  locale: string;
}

/** The shape of the generated `CmsTypes` map: type name to `GeneratedType`. */
export type TypeMap = { [name: string]: GeneratedType };

/** What a client may be typed with: a `CmsTypes` map or `defineType` results. */
export type ClientTypes = readonly ContentType[] | TypeMap;

/** A content type given by its `defineType` result or by name. */
export type TypeArg = ContentType | string;

type Join<Prefix extends string, Name extends string> = Prefix extends '' ? Name : `${Prefix}.${Name}`;

type TargetOf<M extends TypeMap, Name> = Name extends keyof M ? M[Name]['frontmatter'] : Record<string, unknown>;

/** Swaps the id strings of a reference value (one id or a list) for `D`; `null` and `undefined` stay. */
type SwapIds<V, D> = V extends string ? D : V extends readonly unknown[] ? { [K in keyof V]: SwapIds<V[K], D> } : V;

type ResolveAt<V, P extends string, Refs, R extends string, M extends TypeMap> = P extends R
  ? P extends keyof Refs
    ? SwapIds<V, ResolvedDocument<TargetOf<M, Refs[P]>> | null>
    : V
  : V extends readonly unknown[]
    ? { [K in keyof V]: ResolveAt<V[K], P, Refs, R, M> }
    : V extends object
      ? ResolveFields<V, Refs, R, M, P>
      : V;

type ResolveFields<F, Refs, R extends string, M extends TypeMap, P extends string> = {
  [K in keyof F]: ResolveAt<F[K], Join<P, K & string>, Refs, R, M>;
};

/** A generated type's frontmatter with the reference paths in `R` resolved. */
export type ResolvedFrontmatter<M extends TypeMap, Name extends keyof M, R extends string> = [R] extends [never]
  ? M[Name]['frontmatter']
  : ResolveFields<M[Name]['frontmatter'], M[Name]['references'], R, M, ''>;

type MapDocument<M extends TypeMap, Name, R extends string> = Name extends keyof M
  ? Omit<Document, 'frontmatter' | 'locale'> & {
      locale: M[Name]['locale'];
      frontmatter: ResolvedFrontmatter<M, Name, R>;
    }
  : Document;

type ListDocument<T, Types extends readonly ContentType[], R extends string> = TypedDocument<
  T extends ContentType ? T : Extract<Types[number], { name: T }>,
  R
>;

/** A document whose frontmatter is typed by its content type, `Resolved` references resolved. */
export type TypedDocument<T = never, Resolved extends string = never> = [T] extends [never]
  ? Document
  : T extends ContentType
    ? Omit<Document, 'frontmatter'> & { frontmatter: InferFrontmatter<T, Resolved> }
    : Document;

/** The document `content.list/get/iterate` answer for type argument `T` on a client typed with `Types`. */
export type DocumentOf<T, Types extends ClientTypes, R extends string> = [T] extends [never]
  ? Document
  : T extends ContentType
    ? TypedDocument<T, R>
    : Types extends readonly ContentType[]
      ? ListDocument<T, Types, R>
      : Types extends TypeMap
        ? MapDocument<Types, T, R>
        : Document;
