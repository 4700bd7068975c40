import { describe, expect, it } from 'vitest';
import { isPreviewMessage, isTrustedOrigin } from './protocol.js';

describe('live preview origin check', () => {
  it('trusts exactly the configured origin, however the setting is written', () => {
    expect(isTrustedOrigin('https://cms.example', 'https://cms.example')).toBe(true);
    expect(isTrustedOrigin('https://cms.example', 'https://cms.example/studio/')).toBe(true);
    expect(isTrustedOrigin('https://cms.example', 'https://cms.example:443')).toBe(true);
    expect(isTrustedOrigin('http://localhost:4000', ['https://cms.example', 'http://localhost:4000'])).toBe(true);
  });

  it('refuses every other origin', () => {
    expect(isTrustedOrigin('https://evil.example', 'https://cms.example')).toBe(false);
    expect(isTrustedOrigin('http://cms.example', 'https://cms.example')).toBe(false);
    expect(isTrustedOrigin('https://cms.example:8443', 'https://cms.example')).toBe(false);
    expect(isTrustedOrigin('https://cms.example.evil.example', 'https://cms.example')).toBe(false);
    expect(isTrustedOrigin('null', 'https://cms.example')).toBe(false);
    expect(isTrustedOrigin('https://cms.example', 'not a url')).toBe(false);
    expect(isTrustedOrigin('https://cms.example', [])).toBe(false);
  });

  it('recognises only messages of type cms:preview', () => {
    expect(isPreviewMessage({ type: 'cms:preview', kind: 'document' })).toBe(true);
    expect(isPreviewMessage({ type: 'other', kind: 'document' })).toBe(false);
    expect(isPreviewMessage('cms:preview')).toBe(false);
    expect(isPreviewMessage(null)).toBe(false);
  });
});
