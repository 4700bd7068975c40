import { Link } from '../../routing/navigation.js';
import type { SlotWidgetProps } from '../props.js';

/** `content.editor.header.actions` (domain.content): the document's published versions. */
export function HistoryLink({ doc, title }: SlotWidgetProps<'content.editor.header.actions'>) {
  if (doc.isDeleted) return null;
  return (
    <Link to={`/content/${encodeURIComponent(doc.type)}/${doc.documentId}/history`} className="button">
      {title}
    </Link>
  );
}
