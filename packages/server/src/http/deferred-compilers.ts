/**
 * Route validators (Ajv) and response serializers (fast-json-stringify) compiled at a route's first
 * request instead of all at once while the server starts: compiling the ~150 routes' schemas was about
 * 300 ms of a 1 s start on the embedded default, and compiling them all in the background after the
 * start still cost about a second of CPU and 12-25 MiB of memory that most servers never use (a site
 * reads content; few call every management route) (docs/benchmarks.md "Footprint: idle memory"). The
 * compilers are Fastify's own (`@fastify/ajv-compiler` with the app's `ajv` options,
 * `@fastify/fast-json-stringify-compiler`), so every schema compiles and behaves exactly as before; only
 * the moment changes. The test suite compiles every route (`compileAll`), so none fails at its first use.
 */
import ajvCompiler from '@fastify/ajv-compiler';
import serializerCompiler from '@fastify/fast-json-stringify-compiler';

/** What Fastify hands a compiler for one part of one route. */
interface RouteSchema {
  schema: unknown;
  method: string;
  url: string;
  httpPart?: string;
}
type Validate = ((data: unknown, context?: unknown) => unknown) & { errors?: unknown; schemaEnv?: unknown };
type Serialize = (data: unknown) => string;
type BuildValidator = (externalSchemas: unknown, options: unknown) => (route: RouteSchema) => Validate;
type BuildSerializer = (externalSchemas: unknown, options: unknown) => (route: RouteSchema) => Serialize;

export interface DeferredCompilers {
  /** For Fastify's `schemaController.compilersFactory`. */
  compilersFactory: { buildValidator: BuildValidator; buildSerializer: BuildSerializer };
  /** Compiles everything not compiled yet, now; returns how many. Throws the first compile error. */
  compileAll(): number;
  /** How many validators and serializers are not compiled yet. */
  pending(): number;
}

export function createDeferredCompilers(): DeferredCompilers {
  const waiting = new Set<() => unknown>();

  /** A compiled function built at its first use (or by compileAll), once. */
  const defer = <F>(build: () => F): (() => F) => {
    let built: F | undefined;
    const get = (): F => {
      if (built === undefined) {
        built = build();
        waiting.delete(get);
      }
      return built;
    };
    waiting.add(get);
    return get;
  };

  const validatorPool = ajvCompiler();
  const buildValidator: BuildValidator = (externalSchemas, options) => {
    const compile = validatorPool(externalSchemas as never, options as never);
    return (route) => {
      const compiled = defer(() => compile(route as never) as unknown as Validate);
      const validate: Validate = (data, context) => {
        const real = compiled();
        const valid = real(data, context);
        // Fastify reads the errors of a failed validation from the function it was given.
        validate.errors = real.errors;
        return valid;
      };
      // Fastify passes the parent object (so Ajv may coerce a root value) only to Ajv functions,
      // which it recognises by `schemaEnv`.
      Object.defineProperty(validate, 'schemaEnv', { get: () => compiled().schemaEnv });
      return validate;
    };
  };

  const serializerPool = serializerCompiler();
  const buildSerializer: BuildSerializer = (externalSchemas, options) => {
    const compile = serializerPool(externalSchemas as never, options as never);
    return (route) => {
      const compiled = defer(() => compile(route as never) as Serialize);
      return (data: unknown) => compiled()(data);
    };
  };

  const compileAll = (): number => {
    let count = 0;
    for (const get of [...waiting]) {
      get();
      count += 1;
    }
    return count;
  };

  return {
    compilersFactory: { buildValidator, buildSerializer },
    compileAll,
    pending: () => waiting.size,
  };
}
