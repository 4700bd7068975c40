/**
 * Small documentation trees shaped like real generators' layouts, for `cms init` tests: MDN (a deep
 * `index.md` tree in one language, page folders named like language codes), Starlight, Docusaurus,
 * Hugo (locale folders, and locale suffixes), VitePress, Next.js pages, mdBook, MkDocs and Jekyll.
 * Each is a map of relative file name to bytes; frontmatter as such sites write it (comments, flow
 * lists, nested keys, hyphenated keys, a TOML header, CRLF lines, an image beside a page).
 */

export type Tree = Record<string, string | Uint8Array>;

/** A one-pixel PNG: the image of a page bundle. */
export const PNG = Uint8Array.from(
  Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
    'base64',
  ),
);

const MATH = [
  'abs',
  'acos',
  'asin',
  'atan',
  'cbrt',
  'ceil',
  'cos',
  'e',
  'floor',
  'ln2',
  'max',
  'min',
  'pi',
  'sin',
  'sqrt',
];
const ELEMENTS = ['a', 'abbr', 'b', 'br', 'div', 'hr', 'img', 'p', 'span', 'table', 'td', 'th', 'tr'];
const CSS = ['box-sizing', 'color', 'margin', 'display', 'grid-template'];
const HEADERS = ['accept', 'set-cookie', 'content-type', 'cache-control'];
const GLOSSARY = ['api', 'cls', 'dom', 'nan', 'or', 'http', 'html', 'sin'];

/** An MDN page, as the translated-content repository writes them. */
function mdnPage(title: string, slug: string, german: boolean): string {
  const l10n = german ? 'l10n:\n  sourceCommit: 5b20f5f4265f988f80f513db0e4b35c7e0cd70dc\n' : '';
  return `---\ntitle: ${title}\nslug: ${slug}\n${l10n}page-type: guide\nbrowser-compat: [api.${title}, 'javascript.builtins']\n---\n\n{{JSRef}}\n\n${
    german
      ? `Die **\`${title}\`**-Seite beschreibt, wie es funktioniert.`
      : `The **\`${title}\`** page describes how it works.`
  }\n`;
}

/** MDN's tree of one language: `files/<lang>/...`, nested `index.md`, page folders such as `min/`, `br/`, `cls/`. */
export function mdnTree(lang = 'de', scale = 1): Tree {
  const tree: Tree = {};
  const german = lang === 'de';
  const add = (path: string, title: string) => {
    tree[`files/${lang}/${path}/index.md`] = mdnPage(
      title,
      path.replace(/(^|\/)\w/g, (m) => m.toUpperCase()),
      german,
    );
  };
  add('web', 'Web');
  add('glossary', 'Glossary');
  add('web/javascript', 'JavaScript');
  add('web/javascript/reference/global_objects/math', 'Math');
  for (let copy = 0; copy < scale; copy++) {
    const suffix = copy === 0 ? '' : `-${copy}`;
    for (const name of MATH) add(`web/javascript/reference/global_objects/math${suffix}/${name}`, `Math.${name}`);
    for (const name of ELEMENTS) add(`web/html/element${suffix}/${name}`, `<${name}>`);
    for (const name of CSS) add(`web/css${suffix}/${name}`, name);
    for (const name of HEADERS) add(`web/http/headers${suffix}/${name}`, name);
    for (const name of GLOSSARY) add(`glossary${suffix}/${name}`, name.toUpperCase());
  }
  // A comment block at the top and a CRLF line, as some pages have.
  tree[`files/${lang}/web/css/index.md`] =
    `---\n# NOTE: do not edit the slug\ntitle: CSS\r\nslug: Web/CSS\npage-type: landing-page\n---\n\nCSS.\n`;
  return tree;
}

const starlightPage = (title: string, extra = '') =>
  `---\ntitle: ${title}\ndescription: About ${title}\n${extra}---\n\nSome text about ${title}.\n`;

/** Starlight: `src/content/docs/<locale>/...` for every locale. */
export function starlightTree(): Tree {
  const tree: Tree = {};
  const pages = [
    'index.mdx',
    'getting-started.md',
    'guides/components.mdx',
    'guides/i18n.md',
    'reference/configuration.md',
  ];
  for (const locale of ['en', 'de', 'pt-br', 'zh-cn']) {
    for (const page of locale === 'zh-cn' ? pages.slice(0, 3) : pages) {
      tree[`src/content/docs/${locale}/${page}`] = starlightPage(`${page} (${locale})`, 'sidebar:\n  order: 2\n');
    }
  }
  return tree;
}

/** Docusaurus: `docs/`, `versioned_docs/`, `i18n/<locale>/docusaurus-plugin-content-docs/`, a blog. */
export function docusaurusTree(): Tree {
  const doc = (title: string, position: number) =>
    `---\nsidebar_position: ${position}\ntitle: ${title}\ntags: [intro, docs]\n---\n\n# ${title}\n`;
  const tree: Tree = {
    'docs/intro.md': doc('Intro', 1),
    'docs/tutorial-basics/create-a-page.md': doc('Create a Page', 1),
    'docs/tutorial-basics/deploy.mdx': doc('Deploy', 2),
    'versioned_docs/version-1.0/intro.md': doc('Intro 1.0', 1),
    'versioned_docs/version-1.0/tutorial-basics/create-a-page.md': doc('Create a Page 1.0', 1),
    'blog/2024-01-01-welcome.md': '---\nslug: welcome\ntitle: Welcome\nauthors: [slorber, yangshun]\n---\n\nHello.\n',
    'blog/2024-02-01-second.md': '---\nslug: second\ntitle: Second\nauthors: [slorber]\n---\n\nAgain.\n',
  };
  for (const locale of ['fr', 'ja']) {
    tree[`i18n/${locale}/docusaurus-plugin-content-docs/current/intro.md`] = doc(`Intro ${locale}`, 1);
    tree[`i18n/${locale}/docusaurus-plugin-content-docs/current/tutorial-basics/create-a-page.md`] = doc('Page', 1);
    tree[`i18n/${locale}/docusaurus-plugin-content-docs/version-1.0/intro.md`] = doc(`Intro 1.0 ${locale}`, 1);
  }
  return tree;
}

const toml = (title: string) =>
  `+++\ntitle = "${title}"\ndate = 2024-01-01T10:00:00+02:00\ndraft = false\n+++\n\nBody.\n`;
const hugoPage = (title: string) => `---\ntitle: "${title}"\ndate: 2024-01-01\ntags: [hugo, 'site']\n---\n\nText.\n`;

/** Hugo with a content folder per language: `content/<lang>/`, `_index.md`, page bundles with images, a TOML header. */
export function hugoFoldersTree(): Tree {
  const tree: Tree = {};
  for (const lang of ['en', 'de', 'fr']) {
    tree[`content/${lang}/_index.md`] = hugoPage(`Home ${lang}`);
    tree[`content/${lang}/posts/_index.md`] = hugoPage(`Posts ${lang}`);
    tree[`content/${lang}/posts/first/index.md`] = hugoPage(`First ${lang}`);
    tree[`content/${lang}/posts/first/cover.png`] = PNG;
    tree[`content/${lang}/posts/second.md`] = lang === 'fr' ? toml('Second fr') : hugoPage(`Second ${lang}`);
  }
  tree['content/en/about.md'] = hugoPage('About');
  return tree;
}

/** Hugo naming languages by file: `about.md` beside `about.de.md`. */
export function hugoSuffixTree(): Tree {
  return {
    'content/_index.md': hugoPage('Home'),
    'content/_index.de.md': hugoPage('Start'),
    'content/about.md': hugoPage('About'),
    'content/about.de.md': hugoPage('Über uns'),
    'content/posts/first.md': hugoPage('First'),
    'content/posts/first.de.md': hugoPage('Erster'),
    'content/posts/second.md': toml('Second'),
  };
}

/** VitePress: the root locale at the top of `docs/`, other locales in folders beside the pages. */
export function vitepressTree(): Tree {
  const page = (title: string) => `---\nlayout: doc\ntitle: ${title}\n---\n\n# ${title}\n`;
  return {
    'docs/index.md':
      '---\nlayout: home\nhero:\n  name: VitePress\n  actions:\n    - theme: brand\n      text: Start\n---\n',
    'docs/guide/getting-started.md': page('Getting Started'),
    'docs/guide/routing.md': page('Routing'),
    'docs/es/index.md': '---\nlayout: home\nhero:\n  name: VitePress\n---\n',
    'docs/es/guide/getting-started.md': page('Primeros pasos'),
    'docs/es/guide/routing.md': page('Enrutamiento'),
  };
}

/** Next.js pages in locale folders, `.md` and `.mdx` mixed. */
export function nextPagesTree(): Tree {
  const tree: Tree = {};
  for (const locale of ['en', 'fr']) {
    tree[`pages/${locale}/index.mdx`] =
      `---\ntitle: Home ${locale}\n---\n\nimport { Hero } from '../../components/hero'\n\n<Hero />\n`;
    tree[`pages/${locale}/blog/hello.md`] = `---\ntitle: Hello ${locale}\ndate: 2024-03-01\n---\n\nHi.\n`;
    tree[`pages/${locale}/docs/setup.mdx`] = `---\ntitle: Setup ${locale}\n---\n\nSteps.\n`;
  }
  return tree;
}

/** mdBook: `src/SUMMARY.md` and chapters without frontmatter. */
export function mdbookTree(): Tree {
  return {
    'src/SUMMARY.md': '# Summary\n\n- [Chapter 1](./chapter_1.md)\n- [Intro](./ch02/intro.md)\n',
    'src/chapter_1.md': '# Chapter 1\n\nText.\n',
    'src/ch02/intro.md': '# Intro\n\nMore text.\n',
    'src/ch02/details.md': '# Details\n',
  };
}

/** MkDocs with the i18n plugin's suffixes: `index.md` beside `index.fr.md`. */
export function mkdocsTree(): Tree {
  return {
    'docs/index.md': '# Welcome to MkDocs\n',
    'docs/index.fr.md': '# Bienvenue\n',
    'docs/user-guide/writing-your-docs.md': '---\ntitle: Writing\n---\n\n# Writing\n',
    'docs/user-guide/writing-your-docs.fr.md': '---\ntitle: Écrire\n---\n\n# Écrire\n',
    'docs/about/license.md': '# License\n',
  };
}

/** Jekyll: `_posts/` named by date (one `.markdown`, which is not imported), drafts, pages at the top. */
export function jekyllTree(): Tree {
  const post = (title: string) =>
    `---\nlayout: post\ntitle:  "${title}"\ndate:   2024-01-01 10:00:00 +0100\ncategories: jekyll update\n---\nText.\n`;
  return {
    '_posts/2024-01-01-welcome-to-jekyll.md': post('Welcome'),
    '_posts/2024-02-01-second.markdown': post('Second'),
    '_posts/2024-03-01-pi.md': post('Pi'),
    '_drafts/a-draft.md': post('Draft'),
    'about.md': '---\nlayout: page\ntitle: About\npermalink: /about/\n---\n',
  };
}

/** Every layout by name, for tests that run them all. */
export const LAYOUTS: Record<string, () => Tree> = {
  mdn: () => mdnTree('de'),
  starlight: starlightTree,
  docusaurus: docusaurusTree,
  'hugo-folders': hugoFoldersTree,
  'hugo-suffix': hugoSuffixTree,
  vitepress: vitepressTree,
  'next-pages': nextPagesTree,
  mdbook: mdbookTree,
  mkdocs: mkdocsTree,
  jekyll: jekyllTree,
};
