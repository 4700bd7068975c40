/**
 * How the editor page is laid out for writing: focus mode (only the bar, the body and its preview;
 * Ctrl+Shift+F or Cmd+Shift+F, or the toolbar button) and the document details folded away so the
 * body takes the full width. Focus mode marks the root element, since the chrome it hides (top bar,
 * navigation) belongs to the shell, outside this page.
 */
import { useEffect, useState } from 'react';

export const FOCUS_MODE_SHORTCUT = { aria: 'Control+Shift+F Meta+Shift+F', hint: 'Ctrl+Shift+F' };

export function useWritingLayout() {
  const [focusMode, setFocusMode] = useState(false);
  const [detailsFolded, setDetailsFolded] = useState(false);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && event.shiftKey && event.key.toLowerCase() === 'f') {
        event.preventDefault();
        setFocusMode((on) => !on);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  useEffect(() => {
    if (!focusMode) return;
    document.documentElement.dataset.focusMode = 'on';
    return () => {
      delete document.documentElement.dataset.focusMode;
    };
  }, [focusMode]);

  return {
    focusMode,
    toggleFocusMode: () => setFocusMode((on) => !on),
    detailsFolded,
    toggleDetails: () => setDetailsFolded((folded) => !folded),
  };
}
