import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The browser tests run against the production build: build it once when it is missing. */
export default function setup(): void {
  const studio = fileURLToPath(new URL('../..', import.meta.url));
  if (existsSync(`${studio}/dist/index.html`) && !process.env.STUDIO_REBUILD) return;
  // Vitest sets NODE_ENV=test, which would make Vite build React's development JSX runtime.
  const result = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], {
    cwd: studio,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (result.status !== 0) throw new Error('The Studio did not build.');
}
