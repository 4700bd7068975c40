import { describe, expect, it } from 'vitest';
import { serializeEnvelope } from '../../src/modules/domain-content/webhooks/delivery-envelope.js';
import { createSecretBox, SecretBoxError } from '../../src/modules/domain-content/webhooks/secret-box.js';

const SERVER_SECRET = 'server-secret-0123456789abcdef0123456789';
const WEBHOOK_ID = '0d6f4a8e-1b2c-4d3e-8f9a-0b1c2d3e4f5a';
const PLAIN = 'whsec-plain-0123456789abcdef0123456789-ünïcödé';

describe('secret box (webhook secrets at rest)', () => {
  const box = createSecretBox(SERVER_SECRET);

  it('seals to an opaque, versioned string and opens it again', () => {
    const sealed = box.seal(PLAIN, WEBHOOK_ID);
    expect(sealed).toMatch(/^v1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(sealed).not.toContain('whsec');
    expect(box.open(sealed, WEBHOOK_ID)).toBe(PLAIN);
  });

  it('uses a fresh IV every time', () => {
    expect(box.seal(PLAIN, WEBHOOK_ID)).not.toBe(box.seal(PLAIN, WEBHOOK_ID));
  });

  it('opens with the same CMS_SECRET in another process (the key is derived, not random)', () => {
    expect(createSecretBox(SERVER_SECRET).open(box.seal(PLAIN, WEBHOOK_ID), WEBHOOK_ID)).toBe(PLAIN);
  });

  it('refuses another server secret, another webhook id, tampering and garbage', () => {
    const sealed = box.seal(PLAIN, WEBHOOK_ID);
    expect(() => createSecretBox(`${SERVER_SECRET}-rotated`).open(sealed, WEBHOOK_ID)).toThrow(SecretBoxError);
    expect(() => box.open(sealed, '11111111-2222-4333-8444-555555555555')).toThrow(/CMS_SECRET/);
    const [version, iv, tag, ciphertext] = sealed.split('.');
    const flipped = `${(ciphertext ?? '').startsWith('A') ? 'B' : 'A'}${(ciphertext ?? '').slice(1)}`;
    expect(() => box.open([version, iv, tag, flipped].join('.'), WEBHOOK_ID)).toThrow(SecretBoxError);
    expect(() => box.open('plain-text', WEBHOOK_ID)).toThrow(/malformed/);
    expect(() => box.open('v1.a.b', WEBHOOK_ID)).toThrow(SecretBoxError);
  });
});

describe('delivery body serialization', () => {
  it('orders the envelope as interface.md lists it, whatever order the stored payload has', () => {
    // jsonb returns keys shortest first; the body must not depend on that.
    const stored = {
      user: { email: 'e@example.com', id: 'u1' },
      event: 'content.published',
      project: 'site',
      document: {
        version: 2,
        path: 'a',
        type: 'post',
        locale: 'en',
        format: 'md',
        documentId: 'd',
        translationGroupId: 'g',
      },
      timestamp: '2026-01-01T00:00:00.000Z',
      environment: 'production',
    };
    expect(serializeEnvelope(stored)).toBe(
      '{"event":"content.published","timestamp":"2026-01-01T00:00:00.000Z","project":"site","environment":"production",' +
        '"document":{"documentId":"d","translationGroupId":"g","type":"post","path":"a","locale":"en","format":"md","version":2},' +
        '"user":{"id":"u1","email":"e@example.com"}}',
    );
  });

  it('keeps unknown keys, after the known ones', () => {
    expect(serializeEnvelope({ extra: 1, event: 'media.uploaded' })).toBe('{"event":"media.uploaded","extra":1}');
  });
});
