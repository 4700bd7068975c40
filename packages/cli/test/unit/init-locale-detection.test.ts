/**
 * `cms init` never invents locales: on trees shaped like real generators' layouts, a folder or suffix
 * is a locale only when CLDR knows the name AND the structure says so (siblings that are locale
 * folders too, holding the same relative paths); page folders named like languages stay pages.
 */
import { describe, expect, it } from 'vitest';
import { inferSchema } from '../../src/init/infer-schema.js';
import { localeName } from '../../src/init/locale-codes.js';
import { detectLocales } from '../../src/init/locale-layout.js';
import { fileNameOf, parseFileName, withLocaleFolders } from '../../src/sync/file-naming.js';
import { LAYOUTS, mdnTree, type Tree } from '../support/doc-trees.js';

const markdown = (tree: Tree) => Object.keys(tree).filter((f) => /\.mdx?$/.test(f));
const scanned = (tree: Tree) => markdown(tree).map((file) => ({ file, frontmatter: {} }));

/** What --yes takes: the certain readings, and none when some localized file carries no locale. */
function yesReading(tree: Tree) {
  const findings = detectLocales(markdown(tree)).findings;
  const certain = findings.filter((f) => f.certain);
  return { findings, certain: certain.map((f) => `${f.kind}:${f.base}:${f.locales.join(',')}`) };
}

describe('locale codes from CLDR', () => {
  it('knows languages, scripts and regions, and refuses variants, aliases and unknown subtags', () => {
    expect(localeName('de')).toBe('German');
    expect(localeName('pt-br')).toBe('Portuguese (Brazil)');
    expect(localeName('zh-Hant')).toBe('Chinese (Traditional)');
    expect(localeName('es-419')).toBe('Spanish (Latin America)');
    // Hyphenated page names a loose BCP 47 check accepts (language + variant).
    for (const name of ['box-sizing', 'set-cookie', 'go-template', 'grid-template', 'content-type']) {
      expect(localeName(name), name).toBeUndefined();
    }
    // Aliases CLDR rewrites (cls is Sanskrit's retired code), special codes, unknown regions.
    for (const name of ['cls', 'sin', 'div', 'deu', 'und', 'mul', 'en-xx', 'js', 'api', 'css', 'v2']) {
      expect(localeName(name), name).toBeUndefined();
    }
    // Real languages that are also page names: the name alone decides nothing (structure does).
    expect(localeName('min')).toBe('Minangkabau');
    expect(localeName('pi')).toBe('Pali');
  });
});

describe('locale readings of real layouts', () => {
  it('MDN: the German tree is German, its min/ pi/ br/ folders are pages', () => {
    const tree = mdnTree('de');
    const { findings, certain } = yesReading(tree);
    expect(certain).toEqual(['single:files:de']);
    const detection = detectLocales(markdown(tree));
    expect([...detection.lookalikes.keys()].sort()).toEqual(['br', 'hr', 'min', 'nan', 'or', 'pi', 'th', 'tr']);
    expect(detection.lookalikes.get('min')).toEqual(['files/de/web/javascript/reference/global_objects/math/min']);
    expect(findings[0]?.evidence[0]).toContain('files/de/ is named for German and has no sibling folder');
    const inferred = inferSchema(scanned(tree));
    expect(inferred.locales).toEqual(['de']);
    expect(inferred.localeFolders).toEqual(['files']);
    const types = withLocaleFolders(inferred.types, inferred.localeFolders, inferred.locales, { declared: true });
    const key = parseFileName('files/de/web/javascript/reference/global_objects/math/min/index.md', types, 'de');
    expect(key).toMatchObject({ path: 'web/javascript/reference/global_objects/math/min/index', locale: 'de' });
    expect(fileNameOf(types[0] as never, { path: 'glossary/cls/index', locale: 'de', format: 'md' })).toBe(
      'files/de/glossary/cls/index.md',
    );
  });

  it('MDN with several languages: files/<locale>/ sharing paths are locale folders', () => {
    const tree = { ...mdnTree('en-us'), ...mdnTree('de'), ...mdnTree('ja') };
    expect(yesReading(tree).certain).toEqual(['folders:files:de,en-us,ja']);
  });

  it('reads each generator layout as its structure says', () => {
    const expected: Record<string, string[]> = {
      mdn: ['single:files:de'],
      starlight: ['folders:src/content/docs:de,en,pt-br,zh-cn'],
      docusaurus: ['folders:i18n:fr,ja'],
      'hugo-folders': ['folders:content:de,en,fr'],
      'hugo-suffix': ['suffix::de'],
      vitepress: [],
      'next-pages': ['folders:pages:en,fr'],
      mdbook: [],
      mkdocs: ['suffix::fr'],
      jekyll: [],
    };
    for (const [name, make] of Object.entries(LAYOUTS))
      expect(yesReading(make()).certain, name).toEqual(expected[name]);
  });

  it('names the files whose language is written nowhere (Docusaurus docs/, Hugo about.md)', () => {
    const docusaurus = inferSchema(scanned(LAYOUTS.docusaurus?.() ?? {}));
    expect(docusaurus.unlocalized.length).toBeGreaterThan(0);
    expect(docusaurus.unlocalized).toContain('docs/intro.md');
    const hugo = inferSchema(scanned(LAYOUTS['hugo-suffix']?.() ?? {}));
    expect(hugo.unlocalized.sort()).toEqual([
      'content/_index.md',
      'content/about.md',
      'content/posts/first.md',
      'content/posts/second.md',
    ]);
    expect(inferSchema(scanned(LAYOUTS.starlight?.() ?? {})).unlocalized).toEqual([]);
  });

  it('doubts sibling code folders that share only an index page, or nothing', () => {
    const bundles = detectLocales(['ref/br/index.md', 'ref/hr/index.md', 'ref/th/index.md']).findings;
    expect(bundles).toMatchObject([{ kind: 'folders', base: 'ref', certain: false }]);
    expect(bundles[0]?.doubts[0]).toContain('the only path they share is index.md');
    const apart = detectLocales(['x/en/a.md', 'x/de/b.md']).findings;
    expect(apart[0]?.doubts[0]).toContain('no relative path in common');
    // A lone folder holding one page is a page, not a language.
    expect(detectLocales(['math/constants/pi/index.md', 'math/abs/index.md', 'other/a.md']).findings).toEqual([]);
  });

  it('takes a suffix as a locale only where translations sit side by side', () => {
    const lonely = detectLocales(['lib/jquery.min.md', 'lib/lodash.md', 'lib/other.md']).findings;
    expect(lonely).toMatchObject([{ kind: 'suffix', locales: ['min'], certain: false }]);
    const paired = detectLocales(['p/a.en.md', 'p/a.fr.md', 'p/b.en.md', 'p/b.fr.md']).findings;
    expect(paired).toMatchObject([{ kind: 'suffix', locales: ['en', 'fr'], certain: true }]);
  });

  it('never reads a suffix the config does not list as a locale', () => {
    const types = withLocaleFolders(
      [{ name: 'post', directory: 'posts', localized: true, fields: {} }],
      [],
      ['de', 'fr'],
      { declared: true, markDefaultLocale: false },
    );
    expect(parseFileName('posts/jquery.min.md', types, 'de')).toMatchObject({ path: 'jquery.min', locale: 'de' });
    expect(parseFileName('posts/about.fr.md', types, 'de')).toMatchObject({ path: 'about', locale: 'fr' });
    expect(parseFileName('posts/about.md', types, 'de')).toMatchObject({ path: 'about', locale: 'de' });
    // The default's files keep carrying no locale.
    expect(fileNameOf(types[0] as never, { path: 'about', locale: 'de', format: 'md' })).toBe('posts/about.md');
    expect(fileNameOf(types[0] as never, { path: 'about', locale: 'fr', format: 'md' })).toBe('posts/about.fr.md');
  });
});
