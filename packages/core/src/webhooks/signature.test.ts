import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { signWebhook, verifyWebhook } from './signature.js';

const secret = 'whk_test_secret_that_is_at_least_32_characters_long';
const now = 1_700_000_000;

function signatureOf(body: string | Uint8Array, timestamp = now, key = secret): string {
  return signWebhook({ secret: key, body, timestamp, deliveryId: 'dlv_1' })['X-CMS-Signature'];
}

describe('signWebhook', () => {
  it('matches a known answer computed independently with createHmac', () => {
    const body = '{"event":"content.published","project":"default"}';
    const headers = signWebhook({ secret, body, timestamp: now, deliveryId: 'dlv_42' });

    const hex = createHmac('sha256', secret).update(`${now}.${body}`).digest('hex');
    const b64 = createHmac('sha256', secret).update(`dlv_42.${now}.${body}`).digest('base64');
    expect(headers).toEqual({
      'X-CMS-Signature': `t=${now},v1=${hex}`,
      'webhook-id': 'dlv_42',
      'webhook-timestamp': String(now),
      'webhook-signature': `v1,${b64}`,
    });
    expect(hex).toMatch(/^[0-9a-f]{64}$/);
  });

  it('signs the same bytes whether the body is given as a string or as UTF-8 bytes', () => {
    const body = '{"title":"Crème brûlée ✓"}';
    expect(signatureOf(new TextEncoder().encode(body))).toBe(signatureOf(body));
  });

  it('defaults the timestamp to the current unix second', () => {
    const headers = signWebhook({ secret, body: '{}', deliveryId: 'dlv_1' });
    expect(Math.abs(Number(headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(5);
  });

  it('rejects a timestamp that is not whole unix seconds', () => {
    expect(() => signWebhook({ secret, body: '{}', timestamp: 1.5, deliveryId: 'd' })).toThrow(RangeError);
    expect(() => signWebhook({ secret, body: '{}', timestamp: Date.now() * 10_000, deliveryId: 'd' })).toThrow(
      RangeError,
    );
  });
});

describe('verifyWebhook', () => {
  it('accepts any body it signed (round trip)', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.uint8Array()), fc.string({ minLength: 32, maxLength: 64 }), (body, key) => {
        const result = verifyWebhook(body, signatureOf(body, now, key), key, { now });
        expect(result).toEqual({ ok: true, timestamp: now });
      }),
    );
  });

  it('reports a mismatch when the body, the secret or the timestamp was tampered with', () => {
    const body = '{"event":"content.updated"}';
    const header = signatureOf(body);
    expect(verifyWebhook(`${body} `, header, secret, { now })).toEqual({ ok: false, reason: 'signature_mismatch' });
    expect(verifyWebhook(body, header, `${secret}x`, { now })).toEqual({ ok: false, reason: 'signature_mismatch' });
    const shifted = header.replace(`t=${now}`, `t=${now + 1}`);
    expect(verifyWebhook(body, shifted, secret, { now })).toEqual({ ok: false, reason: 'signature_mismatch' });
  });

  it('reports a mismatch for any single changed body byte', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1 }), fc.nat(), fc.integer({ min: 1, max: 255 }), (body, at, flip) => {
        const header = signatureOf(body);
        const tampered = Uint8Array.from(body);
        const index = at % tampered.length;
        tampered[index] = (tampered[index] ?? 0) ^ flip;
        expect(verifyWebhook(tampered, header, secret, { now })).toEqual({ ok: false, reason: 'signature_mismatch' });
      }),
    );
  });

  it('rejects an authentic signature outside the tolerance, in the past or the future', () => {
    const body = '{}';
    const old = signatureOf(body, now - 301);
    expect(verifyWebhook(body, old, secret, { now })).toEqual({ ok: false, reason: 'timestamp_out_of_tolerance' });
    const future = signatureOf(body, now + 301);
    expect(verifyWebhook(body, future, secret, { now })).toEqual({ ok: false, reason: 'timestamp_out_of_tolerance' });
    expect(verifyWebhook(body, signatureOf(body, now - 300), secret, { now })).toMatchObject({ ok: true });
    expect(verifyWebhook(body, old, secret, { now, toleranceSeconds: 600 })).toMatchObject({ ok: true });
  });

  it('accepts the header when any of several v1 entries matches (secret rotation)', () => {
    const body = '{}';
    const good = signatureOf(body).split('v1=')[1] ?? '';
    const bad = signatureOf(body, now, 'another_secret_that_is_32_chars_long!').split('v1=')[1] ?? '';
    expect(verifyWebhook(body, `t=${now},v1=${bad},v1=${good}`, secret, { now })).toMatchObject({ ok: true });
    expect(verifyWebhook(body, `t=${now}, v0=abc, v1=${good.toUpperCase()}`, secret, { now })).toMatchObject({
      ok: true,
    });
    expect(verifyWebhook(body, `t=${now},v1=${bad}`, secret, { now })).toEqual({
      ok: false,
      reason: 'signature_mismatch',
    });
  });

  it('reports a v1 of the wrong length as a mismatch without throwing', () => {
    for (const v1 of ['ab', 'a'.repeat(63), 'a'.repeat(65), 'é'.repeat(32)]) {
      expect(verifyWebhook('{}', `t=${now},v1=${v1}`, secret, { now })).toEqual({
        ok: false,
        reason: 'signature_mismatch',
      });
    }
  });

  it.each([
    undefined,
    null,
    '',
    '   ',
    'garbage',
    `v1=${'a'.repeat(64)}`,
    `t=${now}`,
    `t=${now},v2=abc`,
    `t=,v1=${'a'.repeat(64)}`,
    `t=abc,v1=${'a'.repeat(64)}`,
    `t=-5,v1=${'a'.repeat(64)}`,
    `t=${now},t=${now},v1=${'a'.repeat(64)}`,
    `t=${now},v1=`,
    `t=${now},,v1=${'a'.repeat(64)}`,
    `=${now},v1=${'a'.repeat(64)}`,
  ])('reports %j as malformed', (header) => {
    expect(verifyWebhook('{}', header, secret, { now })).toEqual({ ok: false, reason: 'malformed' });
  });

  it('never throws on arbitrary header text', () => {
    fc.assert(
      fc.property(fc.string(), (header) => {
        expect(verifyWebhook('{}', header, secret, { now }).ok).toBe(false);
      }),
    );
  });
});
