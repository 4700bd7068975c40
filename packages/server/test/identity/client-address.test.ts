import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { startTestServer } from '../support/test-server.js';
import { createUser, login, PASSWORD } from './identity-helpers.js';

const BASE = { CMS_SECRET: 'x'.repeat(32), CMS_DATA_DIR: '/tmp/cms-config-test' };

describe('CMS_TRUST_PROXY', () => {
  it('defaults to trusting no proxy, and accepts booleans or a list of addresses and CIDR ranges', () => {
    expect(loadConfig(BASE).trustProxy).toBe(false);
    expect(loadConfig({ ...BASE, CMS_TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ ...BASE, CMS_TRUST_PROXY: 'no' }).trustProxy).toBe(false);
    expect(loadConfig({ ...BASE, CMS_TRUST_PROXY: '10.0.0.1, 10.0.0.0/8,::1,fd00::/8' }).trustProxy).toEqual([
      '10.0.0.1',
      '10.0.0.0/8',
      '::1',
      'fd00::/8',
    ]);
  });

  it('refuses anything else, naming the setting', () => {
    for (const value of ['2', 'maybe', '10.0.0.1/33', '10.0.0.300', 'proxy.internal']) {
      expect(() => loadConfig({ ...BASE, CMS_TRUST_PROXY: value })).toThrow(ConfigError);
      expect(() => loadConfig({ ...BASE, CMS_TRUST_PROXY: value })).toThrow(/CMS_TRUST_PROXY/);
    }
  });

  it('takes the client address from X-Forwarded-For only when the proxy is trusted', async () => {
    for (const [trust, expected] of [
      ['127.0.0.1', '203.0.113.9'],
      ['false', '127.0.0.1'],
      ['192.0.2.1', '127.0.0.1'],
    ] as const) {
      const t = await startTestServer({ env: { CMS_TRUST_PROXY: trust } });
      try {
        const user = await createUser(t);
        const response = await login(t.url, user.email, PASSWORD, { 'x-forwarded-for': '203.0.113.9' });
        expect(response.body.data.session.ipAddress, `CMS_TRUST_PROXY=${trust}`).toBe(expected);
      } finally {
        await t.close();
      }
    }
  });
});
