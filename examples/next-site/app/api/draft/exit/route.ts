// Leaves draft mode and any release preview: /api/draft/exit?redirect=/posts/hello
import { exitPreviewHandler } from '@cms/next';

export const GET = exitPreviewHandler();
