// The project's preview URL: https://site.example/api/draft?token={token}
import { draftModeHandler } from '@cms/next';

export const GET = draftModeHandler({ pathOf: (document) => `/posts/${document.path}` });
