/** Readable logs and start banner on a terminal in development; JSON elsewhere; the settings that choose. */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { createPrettyLogStream, usesPrettyLogs } from '../../src/logging/pretty-log.js';
import { formatStartBanner } from '../../src/logging/start-banner.js';

const SECRET = { CMS_SECRET: 'x'.repeat(32) };

describe('LOG_FORMAT and NODE_ENV', () => {
  it('is pretty on a terminal outside production, JSON otherwise, and either when forced', () => {
    const auto = loadConfig({ ...SECRET });
    expect(auto.logFormat).toBe('auto');
    expect(usesPrettyLogs(auto, true)).toBe(true);
    expect(usesPrettyLogs(auto, false)).toBe(false);
    expect(usesPrettyLogs(loadConfig({ ...SECRET, NODE_ENV: 'production' }), true)).toBe(false);
    expect(usesPrettyLogs(loadConfig({ ...SECRET, LOG_FORMAT: 'json' }), true)).toBe(false);
    expect(usesPrettyLogs(loadConfig({ ...SECRET, LOG_FORMAT: 'pretty', NODE_ENV: 'production' }), false)).toBe(true);
  });

  it('refuses an unknown format, naming the allowed ones', () => {
    expect(() => loadConfig({ ...SECRET, LOG_FORMAT: 'text' })).toThrow(
      new ConfigError('LOG_FORMAT must be one of json, pretty, auto, got "text".'),
    );
  });

  it('makes a development key only for the embedded default outside production', () => {
    expect(loadConfig({ ...SECRET }).devKey).toBe(true);
    expect(loadConfig({ ...SECRET, CMS_DEV_KEY: 'false' }).devKey).toBe(false);
    expect(loadConfig({ ...SECRET, NODE_ENV: 'production' }).devKey).toBe(false);
    expect(loadConfig({ ...SECRET, DATABASE_URL: 'postgres://localhost/cms' }).devKey).toBe(false);
  });
});

describe('readable log lines', () => {
  const collect = () => {
    const out: string[] = [];
    return { out, stream: createPrettyLogStream({ write: (text: string) => out.push(text) }, { color: false }) };
  };

  it('prints one short line per request', () => {
    const { out, stream } = collect();
    stream.write(
      `${JSON.stringify({ level: 30, time: Date.UTC(2026, 0, 1, 12, 4, 5), pid: 1, hostname: 'h', requestId: 'r1', msg: 'request', method: 'GET', url: '/api/v1/content?type=post', statusCode: 200, durationMs: 4.2, principal: 'apiKey' })}\n`,
    );
    expect(out).toHaveLength(1);
    expect(out[0]).toMatch(/^\d\d:\d\d:\d\d INFO {2}GET \/api\/v1\/content\?type=post 200 4\.2 ms apiKey\n$/);
  });

  it('prints other lines as message and fields, with the stack of an error', () => {
    const { out, stream } = collect();
    stream.write(JSON.stringify({ level: 40, time: 0, msg: 'slow query', table: 'documents', reason: 'two words' }));
    stream.write(
      JSON.stringify({ level: 50, time: 0, msg: 'failed', err: { message: 'boom', stack: 'Error: boom\n    at x' } }),
    );
    expect(out[0]).toMatch(/WARN {2}slow query table=documents reason="two words"\n$/);
    expect(out[1]).toMatch(/ERROR failed\nError: boom\n {4}at x\n$/);
  });

  it('leaves the one-time values to the banner', () => {
    const { out, stream } = collect();
    stream.write(JSON.stringify({ level: 30, msg: 'created a development key', devKey: 'cms_key_live_x' }));
    stream.write(JSON.stringify({ level: 40, msg: 'no user exists yet', setupUrl: 'http://x/studio/setup?token=t' }));
    expect(out).toEqual([]);
  });

  it('passes through a line that is not JSON', () => {
    const { out, stream } = collect();
    stream.write('plain text\n');
    expect(out).toEqual(['plain text\n']);
  });
});

describe('the start banner', () => {
  const config = {
    publicUrl: 'http://127.0.0.1:4000',
    dataDir: '/srv/cms/.cms',
    databaseUrl: null,
    defaultProject: 'default',
    dev: false,
  };

  it('shows the address, Studio, data directory, setup link and development key', () => {
    const banner = formatStartBanner(
      {
        address: 'http://127.0.0.1:4000',
        config,
        notices: { setupUrl: 'http://127.0.0.1:4000/studio/setup?token=abc', devKey: 'cms_key_live_abc' },
        startupMs: 812,
      },
      { color: false },
    );
    expect(banner).toContain('CMS is running (started in 812 ms)');
    expect(banner).toMatch(/API {6}http:\/\/127\.0\.0\.1:4000\/api\/v1\n/);
    expect(banner).toMatch(/Studio {3}http:\/\/127\.0\.0\.1:4000\/studio\n/);
    expect(banner).toMatch(/Data {5}\/srv\/cms\/\.cms \(embedded PGlite\)\n/);
    expect(banner).toMatch(/Setup {4}http:\/\/127\.0\.0\.1:4000\/studio\/setup\?token=abc\n/);
    expect(banner).toMatch(/Dev key {2}cms_key_live_abc\n.*shown only now/);
    expect(banner).not.toContain('\x1b[');
  });

  it('shows neither one-time line on a restart, and names PostgreSQL and CMS_DEV when in use', () => {
    const banner = formatStartBanner(
      {
        address: 'http://127.0.0.1:4000',
        config: { ...config, databaseUrl: 'postgres://db/cms', dev: true },
        notices: {},
        startupMs: 300,
      },
      { color: true },
    );
    expect(banner).not.toContain('Setup');
    expect(banner).not.toContain('Dev key');
    expect(banner).toContain('PostgreSQL (DATABASE_URL)');
    expect(banner).not.toContain('postgres://db');
    expect(banner).toContain('loopback and self-signed');
  });
});
