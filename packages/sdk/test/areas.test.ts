/** Every area besides content against a real server: schema, media, environments, search, migrations, keys, users, me, actions, auth. */
import { createClient } from '@cms/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PNG, type SdkHarness, startSdkServer } from './sdk-fixtures.js';

/** The image transform settings of a project that sets none. */
/** The optional settings (images, live preview) of a project that sets none. */
const UNSET_IMAGE_SETTINGS = {
  mediaImagePresets: null,
  mediaImageMaxDimension: null,
  mediaImageMaxInputPixels: null,
  previewUrl: null,
  previewUrls: null,
};

let harness: SdkHarness;
beforeAll(async () => {
  harness = await startSdkServer();
});
afterAll(() => harness.server.close());

describe('schema', () => {
  it('gets the schema, one type, and reports a missing type', async () => {
    const cms = harness.client();
    const schema = await cms.schema.get();
    expect(schema.types.map((type) => type.name)).toEqual(['post', 'author']);
    expect(schema.schemaHash).toMatch(/^[0-9a-f]{64}$/);
    expect(await cms.schema.getType('post')).toMatchObject({
      name: 'post',
      directory: 'posts',
      schemaHash: schema.schemaHash,
    });
    await expect(cms.schema.getType('nope')).rejects.toMatchObject({ code: 'SCHEMA_NOT_FOUND', status: 404 });
  });
});

describe('media', () => {
  it('uploads a Blob, a stream with progress, lists, iterates, gets and deletes', async () => {
    const cms = harness.client();
    const asset = await cms.media.upload({ file: new Blob([PNG], { type: 'image/png' }), filename: 'dot.png' });
    expect(asset).toMatchObject({ filename: 'dot.png', mimeType: 'image/png', sizeBytes: PNG.length });

    const progress: number[] = [];
    const stream = new Blob([PNG]).stream();
    const streamed = await cms.media.upload({
      file: stream,
      filename: 'streamed.png',
      size: PNG.length,
      onProgress: ({ loaded, total }) => {
        progress.push(loaded);
        expect(total).toBe(PNG.length);
      },
    });
    expect(streamed).toMatchObject({ filename: 'streamed.png', sizeBytes: PNG.length });
    expect(progress.at(-1)).toBe(PNG.length);

    const withProgress = await cms.media.upload({
      file: new File([PNG], 'file.png', { type: 'image/png' }),
      onProgress: () => {},
    });
    expect(withProgress.filename).toBe('file.png');

    const page = await cms.media.list({ limit: 2, sort: 'filename' });
    expect(page.pagination).toMatchObject({ total: 3, limit: 2, hasMore: true });
    const all: string[] = [];
    for await (const item of cms.media.iterate({ limit: 1, sort: 'filename' })) all.push(item.filename);
    expect(all).toEqual(['dot.png', 'file.png', 'streamed.png']);
    expect(await cms.media.get(asset.id)).toMatchObject({ id: asset.id });
    expect(await cms.media.delete(asset.id)).toEqual({ deleted: true, id: asset.id });
    await expect(cms.media.get(asset.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('environments, search, migrations', () => {
  it('creates, lists, promotes and deletes an environment', async () => {
    const cms = harness.client();
    await cms.content.create({ type: 'post', path: 'env/one', frontmatter: { title: 'Env one' } });
    expect(await cms.environments.create({ name: 'staging' })).toMatchObject({ name: 'staging', isDefault: false });
    expect((await cms.environments.list()).map((env) => env.name).sort()).toEqual(['production', 'staging']);
    const plan = await cms.environments.promote('production', { target: 'staging', dryRun: true });
    expect(Array.isArray(plan.plan)).toBe(true);
    expect(await cms.environments.delete('staging')).toMatchObject({ deleted: true, name: 'staging' });
  });

  it('searches content and runs a migration', async () => {
    const cms = harness.client();
    await cms.content.create({ type: 'post', path: 'search/zebra', frontmatter: { title: 'Zebra crossing' } });
    const hits = await cms.search.query({ q: 'zebra', draft: true });
    expect(hits.data[0]).toMatchObject({ path: 'search/zebra', type: 'post' });
    const result = await cms.migrations.run({
      name: 'add-slug',
      type: 'post',
      operations: [{ op: 'set', field: 'slug', value: 'x' }],
      dryRun: true,
    });
    expect(result).toBeTypeOf('object');
  });
});

describe('api keys, users, me, actions, projects', () => {
  it('lets a key revoke itself: it then answers UNAUTHORIZED, the other keys keep working', async () => {
    const cms = harness.client();
    const key = await cms.apiKeys.create({
      label: 'leaving',
      scopes: ['content:read'],
      contextAllowlist: [{ project: 'default', environment: 'production' }],
    });
    const leaving = createClient({ baseUrl: harness.server.url, apiKey: key.apiKey });
    expect(await leaving.apiKeys.revokeCurrent()).toEqual({ revoked: true, id: key.id });
    await expect(leaving.me.get()).rejects.toMatchObject({ code: 'UNAUTHORIZED', status: 401 });
    await expect(leaving.apiKeys.revokeCurrent()).rejects.toMatchObject({ code: 'UNAUTHORIZED', status: 401 });
    expect(await cms.me.get()).toMatchObject({ principalType: 'apiKey' });
  });

  it('manages keys and users and reads the principal and the catalog', async () => {
    const cms = harness.client();
    const key = await cms.apiKeys.create({
      label: 'site',
      scopes: ['content:read'],
      contextAllowlist: [{ project: 'default', environment: 'production' }],
    });
    expect(key.apiKey).toMatch(/^cms_key_/);
    const reader = createClient({
      baseUrl: harness.server.url,
      apiKey: key.apiKey,
      project: 'default',
      environment: 'production',
    });
    expect(await reader.me.get()).toMatchObject({ principalType: 'apiKey', label: 'site' });
    await expect(reader.apiKeys.list()).rejects.toMatchObject({ code: 'FORBIDDEN', status: 403 });
    expect((await cms.apiKeys.list()).some((item) => item.id === key.id)).toBe(true);
    expect(await cms.apiKeys.revoke(key.id)).toMatchObject({ revoked: true });
    await expect(reader.me.get()).rejects.toMatchObject({ code: 'UNAUTHORIZED' });

    const user = await cms.users.create({
      email: 'eve@example.com',
      role: 'editor',
      password: 'correct horse battery staple',
    });
    expect(await cms.users.get(user.id)).toMatchObject({ email: 'eve@example.com', role: 'editor' });
    expect((await cms.users.list()).data.some((item) => item.id === user.id)).toBe(true);
    expect(await cms.users.update(user.id, { role: 'author' })).toMatchObject({ role: 'author' });
    const grants = await cms.users.replaceGrants(user.id, [
      { project: 'default', environment: 'production', role: 'editor' },
    ]);
    expect(grants).toEqual(await cms.users.grants(user.id));

    const catalog = await cms.actions.list();
    expect(catalog.some((action) => action.id === 'content.list')).toBe(true);
    expect(await cms.actions.get('content.get')).toMatchObject({ method: 'GET', path: '/api/v1/content/{documentId}' });
    expect((await cms.projects.list()).length).toBeGreaterThan(0);

    const users: string[] = [];
    for await (const item of cms.users.iterate({ limit: 1 })) users.push(item.email);
    expect(users).toContain('eve@example.com');
    expect(await cms.users.delete(user.id)).toMatchObject({ id: user.id });
    await expect(cms.users.get(user.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('creates a project, reads and replaces its settings, and targets it with withTarget', async () => {
    const cms = harness.client();
    expect(await cms.projects.create({ slug: 'shop', name: 'Shop' })).toMatchObject({ slug: 'shop', name: 'Shop' });
    const shop = cms.withTarget({ project: 'shop' });
    expect(await shop.projects.settings()).toEqual({ ...UNSET_IMAGE_SETTINGS, mediaImageMaxBytes: null });
    expect(await shop.projects.updateSettings({ mediaImageMaxBytes: 1024 })).toEqual({
      ...UNSET_IMAGE_SETTINGS,
      mediaImageMaxBytes: 1024,
    });
    // patchSettings changes only what it names.
    expect(await shop.projects.patchSettings({ previewUrl: 'https://shop.example/{path}' })).toEqual({
      ...UNSET_IMAGE_SETTINGS,
      mediaImageMaxBytes: 1024,
      previewUrl: 'https://shop.example/{path}',
    });
    expect(await cms.projects.settings()).toEqual({ ...UNSET_IMAGE_SETTINGS, mediaImageMaxBytes: null });
  });

  it('iterates search hits across pages', async () => {
    const cms = harness.client();
    for (const i of [1, 2, 3])
      await cms.content.create({ type: 'post', path: `walrus/${i}`, frontmatter: { title: `Walrus ${i}` } });
    const paths: string[] = [];
    for await (const hit of cms.search.iterate({ q: 'walrus', draft: true, limit: 2 })) paths.push(hit.path);
    expect(paths.sort()).toEqual(['walrus/1', 'walrus/2', 'walrus/3']);
  });
});

describe('session mode (the Studio)', () => {
  it('signs in, sends the CSRF header from the cms_csrf cookie on mutations, signs out', async () => {
    const admin = harness.client();
    await admin.users.create({ email: 'studio@example.com', role: 'admin', password: 'correct horse battery staple' });
    // A cookie jar standing in for the browser: same-origin cookies, sent back on every request.
    const jar = new Map<string, string>();
    const browserFetch: typeof fetch = async (input, init) => {
      const headers = new Headers(init?.headers);
      if (jar.size > 0) headers.set('cookie', [...jar].map(([name, value]) => `${name}=${value}`).join('; '));
      const response = await fetch(input, { ...init, headers });
      for (const line of response.headers.getSetCookie()) {
        const [pair] = line.split(';');
        const [name, ...value] = (pair ?? '').split('=');
        if (name) jar.set(name.trim(), value.join('='));
      }
      return response;
    };
    const studio = createClient({
      baseUrl: harness.server.url,
      session: { csrfToken: () => jar.get('cms_csrf') },
      project: 'default',
      environment: 'production',
      fetch: browserFetch,
      schemaHash: 'fetch',
    });
    const signedIn = await studio.auth.login({
      email: 'studio@example.com',
      password: 'correct horse battery staple',
    });
    // Without a second factor, the first step signs in (`{ mfa }` would ask for a code).
    if (!('session' in signedIn)) throw new Error('expected a session, got a second step');
    const { session } = signedIn;
    expect(session.email).toBe('studio@example.com');
    expect(await studio.me.get()).toMatchObject({ principalType: 'user', email: 'studio@example.com' });
    await expect(
      studio.content.create({ type: 'post', path: 'studio/a', frontmatter: { title: 'From the Studio' } }),
    ).resolves.toMatchObject({
      path: 'studio/a',
    });
    const noCsrf = createClient({
      baseUrl: harness.server.url,
      session: { csrfToken: () => null },
      fetch: browserFetch,
      project: 'default',
      environment: 'production',
    });
    await expect(
      noCsrf.webhooks.create({ url: 'https://x.test', events: ['content.created'], secret: 'x'.repeat(32) }),
    ).rejects.toMatchObject({
      code: 'CSRF_INVALID',
    });
    const sessions = await studio.auth.sessions();
    expect(sessions.some((item) => item.current)).toBe(true);

    // An invite accepted through the SDK signs the invitee in; ending that session signs them out.
    const invite = await admin.users.invite({ email: 'new@example.com', role: 'editor' });
    const token = new URL(invite.inviteUrl).searchParams.get('token') ?? '';
    const invitee = createClient({ baseUrl: harness.server.url, session: { csrfToken: () => null } });
    const accepted = await invitee.auth.acceptInvite({ token, password: 'another long passphrase here' });
    expect(accepted.session.email).toBe('new@example.com');
    // A second sign-in of the Studio user elsewhere, ended from the Studio.
    const elsewhere = await invitee.auth.login({
      email: 'studio@example.com',
      password: 'correct horse battery staple',
    });
    if (!('session' in elsewhere)) throw new Error('expected a session, got a second step');
    expect((await studio.auth.sessions()).map((item) => item.id)).toContain(elsewhere.session.id);
    expect(await studio.auth.endSession(elsewhere.session.id)).toMatchObject({ deleted: true, current: false });
    expect(await studio.auth.logout()).toEqual({ success: true });
    await expect(studio.me.get()).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });
});
