// A webhook for content.published, content.unpublished and content.deleted, secret in CMS_WEBHOOK_SECRET.
import { revalidateHandler } from '@cms/next';

export const POST = revalidateHandler();
