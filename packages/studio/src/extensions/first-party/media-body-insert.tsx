import { MediaPicker, markdownFor } from '../../editor/media-picker.js';
import type { EditorNodeProps } from '../props.js';

/** Editor node (domain.content): choose from the media library and insert it at the cursor. */
export function MediaBodyInsert({ insert }: EditorNodeProps) {
  return <MediaPicker onInsert={(asset) => insert(markdownFor(asset))} />;
}
