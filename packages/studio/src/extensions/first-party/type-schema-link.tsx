import { Link } from '../../routing/navigation.js';
import { labelOf } from '../../ui/labels.js';
import type { SlotWidgetProps } from '../props.js';

/** `content.list.toolbar` (domain.content): from a type's list to its fields in the schema view. */
export function TypeSchemaLink({ type }: SlotWidgetProps<'content.list.toolbar'>) {
  return (
    <Link to={`/schema?type=${encodeURIComponent(type)}`} className="button">
      Fields of {labelOf(type).toLowerCase()}
    </Link>
  );
}
