/** Every merge class of `mergeFiles`: what merges, what conflicts, and what the merged text keeps. */
import { describe, expect, it } from 'vitest';
import { hasConflictMarkers, mergeFiles } from '../../src/sync/merge.js';

const BASE = '---\n# note\ntitle: "A"\ntags: [x, y]\ndraft: false\n---\none\ntwo\nthree\nfour\nfive\n';

describe('mergeFiles', () => {
  it('merges different keys, keeping the local comments, quoting and flow style', () => {
    const ours = BASE.replace('"A"', '"B"');
    const theirs = BASE.replace('tags: [x, y]', 'tags: [x, y, z]');
    expect(mergeFiles(BASE, ours, theirs)).toEqual({
      clean: true,
      text: '---\n# note\ntitle: "B"\ntags: [x, y, z]\ndraft: false\n---\none\ntwo\nthree\nfour\nfive\n',
    });
  });

  it('merges adjacent keys changed on each side (key by key, not line by line)', () => {
    const ours = BASE.replace('"A"', '"B"');
    const theirs = BASE.replace('tags: [x, y]', 'tags: [z]');
    const merged = mergeFiles(BASE, ours, theirs);
    expect(merged).toMatchObject({ clean: true });
    expect(merged.text).toContain('title: "B"\ntags: [z]\n');
  });

  it('takes a key removed on one side and added on the other', () => {
    const ours = BASE.replace('draft: false\n', '');
    const theirs = BASE.replace('draft: false\n', 'draft: false\nauthor: me\n');
    const merged = mergeFiles(BASE, ours, theirs);
    expect(merged).toMatchObject({ clean: true });
    expect(merged.text).not.toContain('draft:');
    expect(merged.text).toContain('author: me');
  });

  it('treats the same change on both sides as no conflict', () => {
    const both = BASE.replace('"A"', '"B"').replace('three', 'THREE');
    expect(mergeFiles(BASE, both, both)).toEqual({ clean: true, text: both });
  });

  it('merges body edits of lines far enough apart', () => {
    const ours = BASE.replace('one', 'ONE');
    const theirs = BASE.replace('five', 'FIVE');
    expect(mergeFiles(BASE, ours, theirs)).toEqual({
      clean: true,
      text: BASE.replace('one', 'ONE').replace('five', 'FIVE'),
    });
  });

  it('conflicts on one key changed differently, naming it, with markers around its line', () => {
    const result = mergeFiles(BASE, BASE.replace('"A"', '"B"'), BASE.replace('"A"', '"C"'));
    expect(result).toMatchObject({ clean: false, keys: ['title'], bodyRegions: 0 });
    expect(result.text).toContain('<<<<<<< local\ntitle: "B"\n=======\ntitle: "C"\n>>>>>>> server\n');
    expect(hasConflictMarkers(result.text)).toBe(true);
  });

  it('conflicts on the same body line changed differently', () => {
    const result = mergeFiles(BASE, BASE.replace('three', 'mine'), BASE.replace('three', 'theirs'));
    expect(result).toMatchObject({ clean: false, keys: [], bodyRegions: 1 });
    expect(result.text).toContain('<<<<<<< local\nmine\n=======\ntheirs\n>>>>>>> server\n');
  });

  it('keeps CRLF line endings of the local file', () => {
    const crlf = (text: string) => text.replace(/\n/g, '\r\n');
    const merged = mergeFiles(crlf(BASE), crlf(BASE.replace('"A"', '"B"')), BASE.replace('five', 'FIVE'));
    expect(merged).toEqual({ clean: true, text: crlf(BASE.replace('"A"', '"B"').replace('five', 'FIVE')) });
  });

  it('does not take a text that merely mentions markers for a conflict', () => {
    expect(hasConflictMarkers('a\n<<<<<<< local\nonly the opening one\n')).toBe(false);
    expect(hasConflictMarkers(BASE)).toBe(false);
  });
});
