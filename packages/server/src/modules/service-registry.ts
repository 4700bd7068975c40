import type { ServiceRegistry } from './module-types.js';

/** A name -> service map filled by modules in mount order. */
export function createServiceRegistry(): ServiceRegistry {
  const services = new Map<string, unknown>();
  return {
    provide(name, service) {
      if (services.has(name)) throw new Error(`Service "${name}" is provided twice`);
      services.set(name, service);
    },
    get<T>(name: string): T {
      if (!services.has(name)) throw new Error(`Service "${name}" is not provided by any loaded module`);
      return services.get(name) as T;
    },
    find<T>(name: string): T | null {
      return (services.get(name) as T | undefined) ?? null;
    },
  };
}
