import { describe, expect, it } from 'vitest';
import { expandPreviewUrl, previewUrlOrigin, previewUrlTemplateProblem } from './preview-url.js';

describe('preview address templates', () => {
  it('fills the placeholders, encoded, keeping the slashes of the path', () => {
    expect(
      expandPreviewUrl('https://site.example/{locale}/{path}?type={type}&token={token}', {
        path: 'guides/a b',
        locale: 'de-CH',
        type: 'post',
        token: 'a.b+c',
      }),
    ).toBe('https://site.example/de-CH/guides/a%20b?type=post&token=a.b%2Bc');
  });

  it('accepts http(s) templates and says why others are refused', () => {
    expect(previewUrlTemplateProblem('http://localhost:4321/preview/{path}?token={token}')).toBeNull();
    expect(previewUrlTemplateProblem('{path}')).toMatch(/absolute http or https URL/);
    expect(previewUrlTemplateProblem('javascript:alert(1)//{path}')).toMatch(/http or https/);
    expect(previewUrlTemplateProblem('https://site.example/{slug}')).toMatch(/unknown placeholder\(s\) \{slug\}/);
    expect(previewUrlTemplateProblem('https://user:pw@site.example/')).toMatch(/user name/);
    expect(previewUrlTemplateProblem(`https://site.example/${'a'.repeat(2100)}`)).toMatch(/at most/);
  });

  it('names the origin the Studio posts to', () => {
    expect(previewUrlOrigin('https://site.example:8443/{path}')).toBe('https://site.example:8443');
  });
});
