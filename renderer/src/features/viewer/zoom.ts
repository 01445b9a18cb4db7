/** The reader's zoom: fit the page's width or the whole page to the view, or a fixed scale. */
export type Zoom = { kind: 'fit-width' } | { kind: 'fit-page' } | { kind: 'scale'; scale: number };

export const ZOOM_STEPS = [0.25, 0.5, 0.75, 1, 1.25, 1.5, 2, 3, 4] as const;
export const DEFAULT_ZOOM: Zoom = { kind: 'fit-width' };

/** The space around a page in the scroll area (padding each side, gap between pages), in CSS px. */
export const PAGE_GAP = 12;
export const SIDE_PAD = 16;

export interface Size {
  width: number;
  height: number;
}

/** The scale a zoom gives a page of `page` size (at scale 1) in a view of `view` size. */
export function scaleFor(zoom: Zoom, page: Size, view: Size): number {
  if (zoom.kind === 'scale') return zoom.scale;
  const byWidth = (view.width - 2 * SIDE_PAD) / page.width;
  if (zoom.kind === 'fit-width') return clampScale(byWidth);
  return clampScale(Math.min(byWidth, (view.height - 2 * PAGE_GAP) / page.height));
}

export function clampScale(scale: number): number {
  if (!Number.isFinite(scale) || scale <= 0) return 1;
  return Math.min(ZOOM_STEPS[ZOOM_STEPS.length - 1] ?? 4, Math.max(ZOOM_STEPS[0] ?? 0.25, scale));
}

/** The next step up (dir 1) or down (dir -1) from the scale shown now. */
export function stepZoom(current: number, dir: 1 | -1): Zoom {
  const steps = [...ZOOM_STEPS];
  const next = dir > 0 ? steps.find((s) => s > current + 1e-6) : steps.reverse().find((s) => s < current - 1e-6);
  return { kind: 'scale', scale: next ?? clampScale(current) };
}

export function zoomLabel(zoom: Zoom, scale: number): string {
  const pct = `${Math.round(scale * 100)}%`;
  if (zoom.kind === 'fit-width') return `Fit width (${pct})`;
  if (zoom.kind === 'fit-page') return `Fit page (${pct})`;
  return pct;
}
