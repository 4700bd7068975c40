import { appendFileSync } from 'node:fs';

export async function load(url, context, next) {
  if (!url.startsWith('node:')) appendFileSync(process.env.CMS_TRACE_FILE, `${url}\n`);
  return next(url, context);
}
