import { type KeyboardEvent, type PointerEvent, useRef } from 'react';

/** Where crops centre, as fractions of the width and height from the top left (docs/api.md "Media"). */
export interface FocalPoint {
  x: number;
  y: number;
}

const STEP = 0.05;
const clamp = (value: number) => Math.min(1, Math.max(0, Math.round(value * 1000) / 1000));

/**
 * The image with a marker on its focal point: click or drag on the image to move it, or focus the
 * marker and use the arrow keys (5% a press). `null` shows the marker in the middle, the default.
 */
export function FocalPointPicker({
  src,
  alt,
  value,
  onChange,
}: {
  src: string;
  alt: string;
  value: FocalPoint | null;
  onChange(point: FocalPoint): void;
}) {
  const frame = useRef<HTMLDivElement>(null);
  const point = value ?? { x: 0.5, y: 0.5 };

  const pointAt = (event: PointerEvent<HTMLDivElement>) => {
    const box = frame.current?.getBoundingClientRect();
    if (!box || box.width === 0 || box.height === 0) return;
    onChange({ x: clamp((event.clientX - box.left) / box.width), y: clamp((event.clientY - box.top) / box.height) });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    const moves: Record<string, [number, number]> = {
      ArrowLeft: [-STEP, 0],
      ArrowRight: [STEP, 0],
      ArrowUp: [0, -STEP],
      ArrowDown: [0, STEP],
    };
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    onChange({ x: clamp(point.x + move[0]), y: clamp(point.y + move[1]) });
  };

  const percent = (fraction: number) => `${Math.round(fraction * 100)}%`;
  return (
    <div
      ref={frame}
      className="focal-frame"
      data-testid="focal-frame"
      onPointerDown={(event) => {
        event.currentTarget.setPointerCapture(event.pointerId);
        pointAt(event);
      }}
      onPointerMove={(event) => {
        if (event.currentTarget.hasPointerCapture(event.pointerId)) pointAt(event);
      }}
    >
      <img src={src} alt={alt} draggable={false} />
      <button
        type="button"
        className="focal-marker"
        style={{ left: percent(point.x), top: percent(point.y) }}
        aria-label={`Focal point: ${percent(point.x)} from the left, ${percent(point.y)} from the top. Move with the arrow keys.`}
        onKeyDown={onKeyDown}
      />
    </div>
  );
}
