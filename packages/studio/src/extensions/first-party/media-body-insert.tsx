import { MediaPicker, markdownFor } from '../../editor/media-picker.js';
import { useStudio } from '../../state/studio-context.js';
import type { EditorNodeProps } from '../props.js';

/** Editor node (domain.content): choose from the media library and insert it at the cursor. */
export function MediaBodyInsert({ insert }: EditorNodeProps) {
  const { bootstrap } = useStudio();
  return <MediaPicker onInsert={(asset) => insert(markdownFor(asset, bootstrap.publicUrl))} />;
}
