/**
 * Live preview address templates (decisions.md §8 "Live preview"): the project setting `previewUrl`
 * (and `previewUrls` per type) is an absolute http(s) URL in which `{path}`, `{locale}`, `{type}` and
 * `{token}` stand for the previewed document's values, each URL-encoded when the address is built.
 */

/** The placeholders a preview address template may hold. */
export const PREVIEW_URL_PLACEHOLDERS = ['path', 'locale', 'type', 'token'] as const;
export type PreviewUrlPlaceholder = (typeof PREVIEW_URL_PLACEHOLDERS)[number];

/** Longest preview address template accepted. */
export const MAX_PREVIEW_URL_TEMPLATE_LENGTH = 2048;

const PLACEHOLDER = /\{([^{}]*)\}/g;

/** `{path}` keeps its slashes (`guides/intro`): each segment is encoded on its own. */
function encodeValue(name: PreviewUrlPlaceholder, value: string): string {
  return name === 'path' ? value.split('/').map(encodeURIComponent).join('/') : encodeURIComponent(value);
}

/** The address a template gives for these values. */
export function expandPreviewUrl(template: string, values: Record<PreviewUrlPlaceholder, string>): string {
  return template.replace(PLACEHOLDER, (whole, name: string) =>
    (PREVIEW_URL_PLACEHOLDERS as readonly string[]).includes(name)
      ? encodeValue(name as PreviewUrlPlaceholder, values[name as PreviewUrlPlaceholder])
      : whole,
  );
}

/**
 * Why a template is not a usable preview address, or null when it is: it must be an absolute http(s)
 * URL once its placeholders are filled, and name no placeholder but the four known ones.
 */
export function previewUrlTemplateProblem(template: string): string | null {
  if (template.length > MAX_PREVIEW_URL_TEMPLATE_LENGTH) {
    return `must be at most ${MAX_PREVIEW_URL_TEMPLATE_LENGTH} characters`;
  }
  const unknown = [...template.matchAll(PLACEHOLDER)]
    .map((match) => match[1] as string)
    .filter((name) => !(PREVIEW_URL_PLACEHOLDERS as readonly string[]).includes(name));
  if (unknown.length > 0) {
    return `has unknown placeholder(s) ${unknown.map((name) => `{${name}}`).join(', ')}: use {path}, {locale}, {type}, {token}`;
  }
  let url: URL;
  try {
    url = new URL(expandPreviewUrl(template, { path: 'p', locale: 'en', type: 't', token: 'x' }));
  } catch {
    return 'must be an absolute http or https URL, e.g. https://site.example/preview?path={path}&token={token}';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return `must be an http or https URL (not ${url.protocol})`;
  }
  if (url.username || url.password) return 'must not carry a user name or password';
  return null;
}

/** The origin a template's addresses load from (what the Studio posts to). Assumes a valid template. */
export function previewUrlOrigin(template: string): string {
  return new URL(expandPreviewUrl(template, { path: 'p', locale: 'en', type: 't', token: 'x' })).origin;
}
