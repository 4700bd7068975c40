import type { LookupAddress } from 'node:dns';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  assertWebhookUrlAllowed,
  describeNonPublicAddress,
  type WebhookDnsLookup,
} from '../../src/webhooks/webhook-url-policy.js';

function answering(...addresses: string[]): WebhookDnsLookup {
  return async () => addresses.map((address): LookupAddress => ({ address, family: address.includes(':') ? 6 : 4 }));
}

function refusal(pattern: RegExp) {
  return { code: 'INVALID_INPUT', status: 400, details: { fields: { url: expect.stringMatching(pattern) } } };
}

describe('assertWebhookUrlAllowed', () => {
  it.each([
    ['http://hooks.example.com/cms', /https:\/\//],
    ['ftp://hooks.example.com/cms', /https:\/\//],
    ['not a url', /absolute URL/],
    ['/relative/path', /absolute URL/],
  ])('refuses %s by its form', async (url, pattern) => {
    await expect(assertWebhookUrlAllowed(url, { allowPrivate: false })).rejects.toMatchObject(refusal(pattern));
    await expect(assertWebhookUrlAllowed(url, { allowPrivate: true })).rejects.toMatchObject(refusal(pattern));
  });

  it.each([
    ['https://127.0.0.1/hook', /loopback/],
    ['https://127.8.9.10/hook', /loopback/],
    ['https://2130706433/hook', /loopback/],
    ['https://[::1]:8443/hook', /loopback/],
    ['https://[::ffff:127.0.0.1]/hook', /loopback/],
    ['https://10.0.0.1/hook', /private/],
    ['https://172.16.5.4/hook', /private/],
    ['https://172.31.255.255/hook', /private/],
    ['https://192.168.1.1/hook', /private/],
    ['https://[::ffff:10.0.0.1]/hook', /private/],
    ['https://[fd00::1]/hook', /private/],
    ['https://169.254.169.254/latest/meta-data/', /cloud metadata/],
    ['https://[::ffff:169.254.169.254]/', /cloud metadata/],
    ['https://[fd00:ec2::254]/', /cloud metadata/],
    ['https://169.254.10.1/hook', /link-local/],
    ['https://[fe80::1]/hook', /link-local/],
    ['https://0.0.0.0/hook', /unspecified/],
    ['https://[::]/hook', /unspecified/],
    ['https://100.64.0.1/hook', /carrier-grade NAT/],
    ['https://100.127.255.254/hook', /carrier-grade NAT/],
    ['https://[64:ff9b::7f00:1]/hook', /NAT64 \(64:ff9b::\/96\) to a loopback/],
    ['https://[64:ff9b::127.0.0.1]/hook', /NAT64 \(64:ff9b::\/96\) to a loopback/],
    ['https://[64:ff9b::a00:1]/hook', /NAT64 \(64:ff9b::\/96\) to a private/],
    ['https://[64:ff9b::192.168.1.1]/hook', /NAT64 \(64:ff9b::\/96\) to a private/],
    ['https://[64:ff9b::a9fe:a9fe]/hook', /NAT64 \(64:ff9b::\/96\) to a cloud metadata/],
    ['https://[64:ff9b:1::a00:1]/hook', /local NAT64/],
    ['https://[64:ff9b:1:abcd::1]/hook', /local NAT64/],
    ['https://[2002:7f00:1::]/hook', /6to4 \(2002::\/16\) to a loopback/],
    ['https://[2002:a00:1::1]/hook', /6to4 \(2002::\/16\) to a private/],
    ['https://[2002:c0a8:101:0:0:0:0:1]/hook', /6to4 \(2002::\/16\) to a private/],
    ['https://[2002:a9fe:a9fe::]/hook', /6to4 \(2002::\/16\) to a cloud metadata/],
    ['https://[2002:6440:1::]/hook', /6to4 \(2002::\/16\) to a carrier-grade NAT/],
    ['https://[::ffff:0:7f00:1]/hook', /SIIT \(::ffff:0:0:0\/96\) to a loopback/],
    ['https://[::ffff:0:10.0.0.1]/hook', /SIIT \(::ffff:0:0:0\/96\) to a private/],
    ['https://[0:0:0:0:ffff:0:a9fe:a9fe]/hook', /SIIT \(::ffff:0:0:0\/96\) to a cloud metadata/],
    ['https://[fec0::1]/hook', /site-local/],
    ['https://[feff:ffff::1]/hook', /site-local/],
    ['https://[2001::1]/hook', /Teredo tunnel/],
    ['https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/hook', /Teredo tunnel/],
    ['https://[2001:0:ffff:ffff:ffff:ffff:ffff:ffff]/hook', /Teredo tunnel/],
    ['https://[100::1]/hook', /discard-only/],
    ['https://[100::ffff:ffff:ffff:ffff]/hook', /discard-only/],
  ])('refuses %s unless private targets are allowed', async (url, pattern) => {
    await expect(assertWebhookUrlAllowed(url, { allowPrivate: false })).rejects.toMatchObject(
      refusal(new RegExp(`${pattern.source}.*CMS_WEBHOOK_ALLOW_PRIVATE`)),
    );
    const addresses = await assertWebhookUrlAllowed(url, { allowPrivate: true });
    expect(addresses).toHaveLength(1);
  });

  it('refuses a hostname that resolves to a private address, and names both', async () => {
    const lookup = answering('10.1.2.3');
    await expect(
      assertWebhookUrlAllowed('https://intranet.example.com/hook', { allowPrivate: false, lookup }),
    ).rejects.toMatchObject(refusal(/"intranet\.example\.com" resolves to 10\.1\.2\.3 is a private address/));
    await expect(
      assertWebhookUrlAllowed('https://intranet.example.com/hook', { allowPrivate: true, lookup }),
    ).resolves.toEqual([{ address: '10.1.2.3', family: 4 }]);
  });

  it('refuses a hostname when any one of its addresses is not public', async () => {
    const lookup = answering('93.184.216.34', '2606:2800:220:1::1', 'fd12::7');
    await expect(
      assertWebhookUrlAllowed('https://mixed.example.com/', { allowPrivate: false, lookup }),
    ).rejects.toMatchObject(refusal(/fd12::7 is a private address/));
  });

  it('refuses metadata hostnames before asking DNS', async () => {
    const lookup: WebhookDnsLookup = async () => {
      throw new Error('DNS must not be asked');
    };
    for (const url of ['https://metadata.google.internal/computeMetadata/v1/', 'https://METADATA.google.internal./']) {
      await expect(assertWebhookUrlAllowed(url, { allowPrivate: false, lookup })).rejects.toMatchObject(
        refusal(/cloud metadata host/),
      );
    }
    await expect(
      assertWebhookUrlAllowed('https://metadata.google.internal/', {
        allowPrivate: true,
        lookup: answering('169.254.169.254'),
      }),
    ).resolves.toEqual([{ address: '169.254.169.254', family: 4 }]);
  });

  it('refuses a host that does not resolve or has no address', async () => {
    const failing: WebhookDnsLookup = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND nope.invalid'), { code: 'ENOTFOUND' });
    };
    await expect(
      assertWebhookUrlAllowed('https://nope.invalid/', { allowPrivate: true, lookup: failing }),
    ).rejects.toMatchObject(refusal(/"nope\.invalid" does not resolve \(ENOTFOUND\)/));
    await expect(
      assertWebhookUrlAllowed('https://empty.example/', { allowPrivate: false, lookup: answering() }),
    ).rejects.toMatchObject(refusal(/has no address/));
  });

  it('allows public addresses and returns every resolved address', async () => {
    await expect(assertWebhookUrlAllowed('https://93.184.216.34/hook', { allowPrivate: false })).resolves.toEqual([
      { address: '93.184.216.34', family: 4 },
    ]);
    const lookup = answering('93.184.216.34', '2606:2800:220:1::1');
    await expect(
      assertWebhookUrlAllowed('https://hooks.example.com/', { allowPrivate: false, lookup }),
    ).resolves.toEqual([
      { address: '93.184.216.34', family: 4 },
      { address: '2606:2800:220:1::1', family: 6 },
    ]);
  });

  it('resolves with the system resolver by default (localhost is loopback)', async () => {
    await expect(assertWebhookUrlAllowed('https://localhost:8443/', { allowPrivate: false })).rejects.toMatchObject(
      refusal(/"localhost" resolves to .* is a loopback address/),
    );
  });
});

describe('describeNonPublicAddress', () => {
  it('classifies an IPv4-mapped IPv6 address like the IPv4 address it carries', () => {
    fc.assert(
      fc.property(fc.ipV4(), (address) => {
        expect(describeNonPublicAddress(`::ffff:${address}`)).toBe(describeNonPublicAddress(address));
      }),
    );
  });

  it('calls every 10/8, 172.16/12 and 192.168/16 address private', () => {
    const octet = fc.integer({ min: 0, max: 255 });
    const privateV4 = fc.oneof(
      fc.tuple(octet, octet, octet).map(([b, c, d]) => `10.${b}.${c}.${d}`),
      fc.tuple(fc.integer({ min: 16, max: 31 }), octet, octet).map(([b, c, d]) => `172.${b}.${c}.${d}`),
      fc.tuple(octet, octet).map(([c, d]) => `192.168.${c}.${d}`),
    );
    fc.assert(
      fc.property(privateV4, (address) => {
        expect(describeNonPublicAddress(address)).toBe('private');
      }),
    );
  });

  it('refuses a hostname whose AAAA answer is NAT64, 6to4 or SIIT to a private address', async () => {
    for (const address of ['64:ff9b::a00:1', '2002:a00:1::1', '::ffff:0:a00:1']) {
      await expect(
        assertWebhookUrlAllowed('https://hooks.example.com/cms', { allowPrivate: false, lookup: answering(address) }),
      ).rejects.toMatchObject(refusal(/private/));
    }
  });

  it('lets NAT64, 6to4 and SIIT addresses of public IPv4 addresses through', () => {
    expect(describeNonPublicAddress('64:ff9b::808:808')).toBeNull();
    expect(describeNonPublicAddress('64:ff9b::8.8.8.8')).toBeNull();
    expect(describeNonPublicAddress('2002:808:808::1')).toBeNull();
    expect(describeNonPublicAddress('::ffff:0:808:808')).toBeNull();
  });

  it('returns null for public addresses', () => {
    // 2001::/32 is Teredo alone: the rest of 2001::/16 holds public networks.
    for (const address of [
      '1.1.1.1',
      '8.8.8.8',
      '172.32.0.1',
      '100.128.0.1',
      '2606:4700:4700::1111',
      '2001:4860:4860::8888',
      '2001:200::1',
    ]) {
      expect(describeNonPublicAddress(address)).toBeNull();
    }
  });
});
