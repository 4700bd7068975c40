/** Opens an address in the user's browser; resolves false when nothing could be launched. */
import { spawn } from 'node:child_process';

export function openBrowser(url: string, env: NodeJS.ProcessEnv = process.env): Promise<boolean> {
  const [command, args] =
    env.BROWSER !== undefined
      ? [env.BROWSER, [url]]
      : process.platform === 'darwin'
        ? ['open', [url]]
        : process.platform === 'win32'
          ? ['cmd', ['/c', 'start', '""', url.replace(/&/g, '^&')]]
          : ['xdg-open', [url]];
  if (!command) return Promise.resolve(false);
  return new Promise((done) => {
    try {
      const child = spawn(command, args as string[], { stdio: 'ignore', detached: true });
      child.once('error', () => done(false));
      child.once('spawn', () => {
        child.unref();
        done(true);
      });
    } catch {
      done(false);
    }
  });
}
