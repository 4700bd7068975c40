// The project's preview URL: https://site.example/api/draft?token={token}. A release preview token
// (the Studio's "Preview as" a release) also remembers the release, and the pages read as it publishes.
import { draftModeHandler } from '@cms/next';

export const GET = draftModeHandler({ pathOf: (document) => `/posts/${document.path}` });
