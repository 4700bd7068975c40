/**
 * What every signed-in page needs: who is signed in, the projects and environments they may see,
 * the chosen target (remembered), and that target's schema with its hash.
 */
import { createContext, type ReactNode, useCallback, useContext, useEffect, useState } from 'react';
import { type Bootstrap, CmsError, type Environment, schema, studio, type Target } from '../api/index.js';
import type { SchemaType } from '../editor/core-schema.js';
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

const Context = createContext<StudioState | null>(null);

export function useStudio(): StudioState {
  const value = useContext(Context);
  if (!value) throw new Error('useStudio outside StudioProvider');
  return value;
}

type Loaded =
  | { state: 'loading' }
  | { state: 'error'; error: CmsError }
  | {
      state: 'ready';
      bootstrap: Bootstrap;
      environments: Environment[];
      target: Target;
      types: SchemaType[];
      schemaHash: string;
    };

export function StudioProvider({
  children,
  fallback,
}: {
  children: ReactNode;
  fallback: (error: CmsError | null) => ReactNode;
}) {
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });
  const { path, query } = useLocation();
  const next = `${path}${query.toString() ? `?${query}` : ''}`;

  // biome-ignore lint/correctness/useExhaustiveDependencies: `next` is read once, when the session turns out to be missing
  const load = useCallback(async (wanted: Partial<Target>) => {
    try {
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
        setLoaded({
          state: 'ready',
          bootstrap,
          environments: [],
          target: { project: '', environment: '' },
          types: [],
          schemaHash: '',
        });
        return;
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
        guess && guess.project === target.project && guess.environment === target.environment
          ? await guessedSchema
          : null;
      const { types, schemaHash } = early ?? (await loadSchema(target));
      setLoaded({ state: 'ready', bootstrap, environments, target, types, schemaHash });
    } catch (error) {
      if (error instanceof CmsError && error.code === 'UNAUTHORIZED') {
        navigate(`/login?next=${encodeURIComponent(next)}`, { replace: true, force: true });
        return;
      }
      setLoaded({ state: 'error', error: toApiError(error) });
    }
  }, []);

  useEffect(() => {
    void load(rememberedTarget());
  }, [load]);

  if (loaded.state !== 'ready') return <>{fallback(loaded.state === 'error' ? loaded.error : null)}</>;
  const value: StudioState = {
    bootstrap: loaded.bootstrap,
    environments: loaded.environments,
    target: loaded.target,
    types: loaded.types,
    schemaHash: loaded.schemaHash,
    setTarget(target) {
      rememberTarget(target);
      setLoaded({ state: 'loading' });
      void load(target);
    },
    async reloadSchema() {
      const fresh = await loadSchema(loaded.target);
      setLoaded({ ...loaded, ...fresh });
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

export function toApiError(error: unknown): CmsError {
  if (error instanceof CmsError) return error;
  return new CmsError({
    code: 'CLIENT_ERROR',
    status: 0,
    message: error instanceof Error ? error.message : String(error),
  });
}
