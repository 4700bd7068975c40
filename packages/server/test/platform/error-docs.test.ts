import { readFile } from 'node:fs/promises';
import { ERROR_CATALOG, ERROR_CODES } from '@cms/core';
import { describe, expect, it } from 'vitest';

describe('docs/errors.md', () => {
  it('documents every code of the catalog with its status, and nothing else', async () => {
    const text = await readFile(new URL('../../../../docs/errors.md', import.meta.url), 'utf8');
    const rows = [...text.matchAll(/^\| `([A-Z_]+)` \| (\d{3}) \|/gm)].map(([, code, status]) => [
      code,
      Number(status),
    ]);
    const documented = Object.fromEntries(rows);
    expect(Object.keys(documented).sort()).toEqual([...ERROR_CODES].sort());
    for (const code of ERROR_CODES) expect(documented[code], code).toBe(ERROR_CATALOG[code].status);
  });
});
