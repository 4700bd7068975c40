import type { StudioSlot } from '@cms/core';
import { ExtensionFrame } from './extension-boundary.js';
import './extensions.css';
import type { SlotProps } from './props.js';
import { useExtensions } from './use-extensions.js';

/**
 * A place on a Studio page that modules fill with widgets (interface.md slot ids). Renders each
 * widget contributed to `id`, in order; nothing when there is none.
 */
export function Slot<S extends StudioSlot>({
  id,
  props,
  className,
}: {
  id: S;
  props: SlotProps[S];
  className?: string;
}) {
  const widgets = useExtensions('slotWidgets').filter((widget) => widget.slot === id);
  if (widgets.length === 0) return null;
  return (
    <div className={className ? `slot ${className}` : 'slot'} data-slot={id}>
      {widgets.map(({ id: widgetId, title, Component }) => (
        <ExtensionFrame key={widgetId} name={title}>
          <Component {...props} title={title} />
        </ExtensionFrame>
      ))}
    </div>
  );
}

/** Does any widget fill this slot (for pages that lay out around it)? */
export function useSlotFilled(id: StudioSlot): boolean {
  return useExtensions('slotWidgets').some((widget) => widget.slot === id);
}
