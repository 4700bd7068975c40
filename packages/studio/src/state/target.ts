/** The project and environment the person works in, remembered in this browser. */
import type { Target } from '../api/index.js';

const KEY = 'cms.studio.target';

export function rememberedTarget(): Partial<Target> {
  try {
    const value = JSON.parse(window.localStorage.getItem(KEY) ?? '{}') as Partial<Target>;
    return typeof value === 'object' && value ? value : {};
  } catch {
    return {};
  }
}

export function rememberTarget(target: Target): void {
  window.localStorage.setItem(KEY, JSON.stringify(target));
}
