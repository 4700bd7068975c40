/** The frontmatter split, reader and patcher live in core, shared with the server and the Studio. */
export * from '@cms/core/source';
