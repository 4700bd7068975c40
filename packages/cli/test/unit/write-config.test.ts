import { describe, expect, it } from 'vitest';
import { renderConfig } from '../../src/init/write-config.js';

const field = (kind: string, extra: Record<string, unknown> = {}) => ({
  kind,
  required: false,
  nullable: false,
  default: null,
  reference: null,
  checks: [],
  ...extra,
});

describe('renderConfig', () => {
  it('indents nested object fields one level in, also inside lists, with the brace under the field', () => {
    const text = renderConfig({
      types: [
        {
          name: 'post',
          directory: 'content/posts',
          localized: false,
          fields: {
            title: field('string', { required: true }),
            seo: field('object', { fields: { description: field('string'), published: field('date') } }),
            events: field('array', {
              items: { kind: 'object', checks: [], fields: { at: field('date', { required: true }) } },
            }),
          },
        },
      ] as never,
      locales: [],
    });
    expect(text).toContain(
      [
        '  fields: {',
        '    title: field.string().required(),',
        '    seo: field.object({',
        '      description: field.string(),',
        '      published: field.date(),',
        '    }),',
        '    events: field.array(field.object({',
        '      at: field.date().required(),',
        '    })),',
        '  },',
      ].join('\n'),
    );
  });
});
