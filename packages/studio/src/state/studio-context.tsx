/**
 * What every signed-in page needs: who is signed in, the projects and environments they may see,
 * the chosen target (remembered), and that target's schema with its hash, read through the query cache
 * (one entry per choice of target).
 */

import type { SchemaType } from '@cms/core/frontmatter';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, type ReactNode, useContext, useEffect, useState } from 'react';
import { type Bootstrap, CmsError, type Environment, schema, studio, type Target, toApiError } from '../api/index.js';
import { navigate, useLocation } from '../routing/navigation.js';
import { rememberedTarget, rememberTarget } from './target.js';

export interface StudioState {
  bootstrap: Bootstrap;
  environments: Environment[];
  target: Target;
  types: SchemaType[];
  schemaHash: string;
  setTarget(target: Target): void;
  /** Reloads the schema (after a 409 SCHEMA_HASH_MISMATCH, say). */
  reloadSchema(): Promise<void>;
}

/** Re-exported for the pages that read the Studio's state and show its errors with one import. */
export { toApiError };

const Context = createContext<StudioState | null>(null);

export function useStudio(): StudioState {
  const value = useContext(Context);
  if (!value) throw new Error('useStudio outside StudioProvider');
  return value;
}

interface Loaded {
  bootstrap: Bootstrap;
  environments: Environment[];
  target: Target;
  types: SchemaType[];
  schemaHash: string;
}

/** The bootstrap and schema for the target asked for (the first project and default environment as fallbacks). */
async function loadStudio(wanted: Partial<Target>): Promise<Loaded> {
  // A returning person has a remembered target: its bootstrap and its schema are asked for at
  // once, instead of three requests one after the other (bootstrap, the project's bootstrap,
  // the schema) before a page can ask for its own data. Anything unexpected falls back to that.
  const guess =
    wanted.project && wanted.environment ? { project: wanted.project, environment: wanted.environment } : null;
  const guessedSchema = guess ? loadSchema(guess).catch(() => null) : null;
  const guessed = guess
    ? await studio.bootstrap(guess.project).catch((error: unknown) => {
        if (error instanceof CmsError && error.code === 'UNAUTHORIZED') throw error;
        return null;
      })
    : null;
  let bootstrap = guessed ?? (await studio.bootstrap(null));
  const projects = bootstrap.projects;
  const project = projects.find((p) => p.slug === wanted.project)?.slug ?? projects[0]?.slug;
  if (!project) {
    return { bootstrap, environments: [], target: { project: '', environment: '' }, types: [], schemaHash: '' };
  }
  if (!guessed || project !== guess?.project) bootstrap = await studio.bootstrap(project);
  const environments = bootstrap.environments;
  const environment =
    environments.find((e) => e.name === wanted.environment)?.name ??
    environments.find((e) => e.isDefault)?.name ??
    environments[0]?.name ??
    'production';
  const target = { project, environment };
  rememberTarget(target);
  const early =
    guess && guess.project === target.project && guess.environment === target.environment ? await guessedSchema : null;
  const { types, schemaHash } = early ?? (await loadSchema(target));
  return { bootstrap, environments, target, types, schemaHash };
}

export function StudioProvider({
  children,
  fallback,
}: {
  children: ReactNode;
  fallback: (error: CmsError | null) => ReactNode;
}) {
  const { path, query } = useLocation();
  const next = `${path}${query.toString() ? `?${query}` : ''}`;
  const client = useQueryClient();
  // Each choice of target is read afresh, even the same one again (after an environment is created,
  // its project's data is read again): the count makes a new entry, and the pages wait for it.
  const [wanted, setWanted] = useState(() => ({ target: rememberedTarget(), count: 0 }));
  const key = ['studio', wanted.count, wanted.target.project ?? '', wanted.target.environment ?? ''];
  const read = useQuery({
    queryKey: key,
    queryFn: () => loadStudio(wanted.target),
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
  });
  const error = read.error ? toApiError(read.error) : null;
  const signedOut = error?.code === 'UNAUTHORIZED';

  // No session: sign in first, then come back here.
  useEffect(() => {
    if (signedOut) navigate(`/login?next=${encodeURIComponent(next)}`, { replace: true, force: true });
  }, [signedOut, next]);

  const loaded = read.data;
  if (!loaded) return <>{fallback(error && !signedOut ? error : null)}</>;
  const value: StudioState = {
    ...loaded,
    setTarget(target) {
      rememberTarget(target);
      setWanted((before) => ({ target, count: before.count + 1 }));
    },
    async reloadSchema() {
      const fresh = await loadSchema(loaded.target);
      client.setQueryData<Loaded>(key, (before) => before && { ...before, ...fresh });
    },
  };
  return <Context.Provider value={value}>{children}</Context.Provider>;
}

async function loadSchema(target: Target): Promise<{ types: SchemaType[]; schemaHash: string }> {
  try {
    return await schema.get(target);
  } catch (error) {
    if (error instanceof CmsError && (error.code === 'SCHEMA_NOT_FOUND' || error.code === 'NOT_FOUND')) {
      return { types: [], schemaHash: '' };
    }
    throw error;
  }
}
