// Says what a preview shows and links to leaving it; nothing outside draft mode.
import { isPreviewRead, type PreviewReadOptions } from '@cms/next';

export function PreviewNotice({ read, path }: { read: PreviewReadOptions; path: string }) {
  if (!isPreviewRead(read)) return null;
  const shown = read.release ? `Release preview (${read.release})` : 'Draft mode: every draft';
  return (
    <p>
      {shown}. <a href={`/api/draft/exit?redirect=${encodeURIComponent(path)}`}>Leave the preview</a>
    </p>
  );
}
