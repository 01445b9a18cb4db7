/**
 * Drawing only what a band of a page shows. pdf.js paints every glyph of a page as a path
 * (in Node it has no font faces), whatever the canvas's size: on the export bench that was most of an
 * excerpt's time, while a band is a fifth of the page or less. pdf.js's render takes an
 * operationsFilter (the viewer uses it to draw the parts of a page on screen); this one leaves out
 * the text-showing and image-painting operations that land wholly above or below the canvas, and
 * runs every other operation (state, paths, clips), so what is drawn is drawn exactly as before.
 *
 * The decision reads the graphics state pdf.js keeps while it draws (the current transform and
 * text position), reached through the render task's internals: if they are not there (another
 * pdf.js), every operation is drawn, as without the filter. Text is judged by its baseline only,
 * with a margin of twice the page's tallest text, so that all the text of one line is drawn or
 * left out together (a run left out does not advance the line's position for the next one).
 */

/** pdf.js's operator numbers the filter looks at (pdfjs.OPS). */
export interface BandOps {
  showText: number;
  showSpacedText: number;
  paintImageXObject: number;
  paintInlineImageXObject: number;
  paintImageMaskXObject: number;
}

interface Matrix {
  a: number;
  b: number;
  c: number;
  d: number;
  e: number;
  f: number;
}

/** What of pdf.js's render task the filter reads; every field may be absent in another version. */
interface RenderInternals {
  _internalRenderTask?: {
    operatorList?: { fnArray?: number[] };
    gfx?: {
      ctx?: { getTransform?(): Matrix };
      current?: { x: number; y: number; textRise: number; textMatrix: number[] | null; textRenderingMode: number };
    };
  };
}

/** Text drawn as a clipping path (render modes 4–7) changes what is drawn after it: always run. */
const ADD_TO_PATH_FLAG = 4;

/**
 * A filter for pdf.js's render of a canvas `height` pixels tall; `margin` pixels above and below
 * still count as inside. Call `attach` with the render task once render() has returned it.
 */
export function bandFilter(ops: BandOps, height: number, margin: number): { filter: (i: number) => boolean; attach(task: unknown): void } {
  let internals: RenderInternals['_internalRenderTask'];
  const text = new Set([ops.showText, ops.showSpacedText]);
  const images = new Set([ops.paintImageXObject, ops.paintInlineImageXObject, ops.paintImageMaskXObject]);
  const outside = (lo: number, hi: number) => hi < -margin || lo > height + margin;
  const filter = (i: number): boolean => {
    const fn = internals?.operatorList?.fnArray?.[i];
    if (fn === undefined || (!text.has(fn) && !images.has(fn))) return true;
    const gfx = internals?.gfx;
    const m = gfx?.ctx?.getTransform?.();
    const cur = gfx?.current;
    if (!m || !cur) return true;
    if (images.has(fn)) {
      // An image fills the unit square of the current transform.
      const ys = [m.f, m.b + m.f, m.d + m.f, m.b + m.d + m.f];
      return !outside(Math.min(...ys), Math.max(...ys));
    }
    if (cur.textRenderingMode & ADD_TO_PATH_FLAG) return true;
    const [ta = 1, tb = 0, tc = 0, td = 1, te = 0, tf = 0] = cur.textMatrix ?? [];
    // Device y changes along a rotated or skewed line: draw it.
    if (Math.abs(m.b * ta + m.d * tb) > 1e-6) return true;
    const px = cur.x;
    const py = cur.y; // the baseline without rise, the same for every run of the line
    const ux = ta * px + tc * py + te;
    const uy = tb * px + td * py + tf;
    const y = m.b * ux + m.d * uy + m.f;
    return !outside(y, y);
  };
  return {
    filter,
    attach(task) {
      internals = (task as RenderInternals)._internalRenderTask;
    },
  };
}
