/**
 * Drawing only what a band of a page shows. pdf.js paints every glyph of a page as a path
 * (in Node it has no font faces), whatever the canvas's size: on the export bench that was most of an
 * excerpt's time, while a band is a fifth of the page or less. pdf.js's render takes an
 * operationsFilter (the viewer uses it to draw the parts of a page on screen); this one leaves out
 * the text-showing, image-painting and path-painting operations that land wholly above or below the
 * canvas, and runs every other operation (state, clips, patterns), so what is drawn is drawn
 * exactly as before. Paths matter on pages with charts and rules: each excerpt of such a page
 * otherwise strokes every line of every figure on it.
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
  /** A path with the operation that paints it (pdf.js ≥ 5 joins them): [paintOp, path, [minX, minY, maxX, maxY]]. */
  constructPath: number;
  fill: number;
  eoFill: number;
  stroke: number;
  closeStroke: number;
  fillStroke: number;
  eoFillStroke: number;
  closeFillStroke: number;
  closeEOFillStroke: number;
}

interface Matrix {
  a: number;
  b: number;
  c: number;
  d: number;
  e: number;
  f: number;
}

/** The part of pdf.js's graphics state the filter reads while a page is drawn. */
interface GraphicsState {
  x: number;
  y: number;
  textRise: number;
  textMatrix: number[] | null;
  textRenderingMode: number;
  fillColor?: unknown;
  strokeColor?: unknown;
  lineWidth?: number;
}

/** What of pdf.js's render task the filter reads; every field may be absent in another version. */
interface RenderInternals {
  _internalRenderTask?: {
    operatorList?: { fnArray?: number[]; argsArray?: (unknown[] | null)[] };
    gfx?: {
      ctx?: { getTransform?(): Matrix };
      current?: GraphicsState;
      pendingClip?: unknown;
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
  const paints = new Set([ops.fill, ops.eoFill, ops.stroke, ops.closeStroke, ops.fillStroke, ops.eoFillStroke, ops.closeFillStroke, ops.closeEOFillStroke]);
  const outside = (lo: number, hi: number) => hi < -margin || lo > height + margin;
  const filter = (i: number): boolean => {
    const fn = internals?.operatorList?.fnArray?.[i];
    if (fn === undefined || (!text.has(fn) && !images.has(fn) && fn !== ops.constructPath)) return true;
    const gfx = internals?.gfx;
    const m = gfx?.ctx?.getTransform?.();
    const cur = gfx?.current;
    if (!m || !cur) return true;
    if (fn === ops.constructPath) return pathInBand(internals?.operatorList?.argsArray?.[i], m, cur, gfx?.pendingClip);
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
  /**
   * A path is left out only when it is painted with a plain colour (a pattern's fill keeps state
   * for the paths after it), no clip waits on it, and its box, widened by the line's width, lies
   * wholly off the canvas.
   */
  const pathInBand = (args: unknown[] | null | undefined, m: Matrix, cur: GraphicsState, pendingClip: unknown): boolean => {
    const [paint, , box] = args ?? [];
    if (typeof paint !== 'number' || !paints.has(paint) || pendingClip) return true;
    if (typeof cur.fillColor !== 'string' || typeof cur.strokeColor !== 'string') return true;
    if (!box || typeof box !== 'object' || !('length' in box) || (box as ArrayLike<number>).length < 4) return true;
    const [x0, y0, x1, y1] = Array.from(box as ArrayLike<number>);
    if (![x0, y0, x1, y1].every((v) => Number.isFinite(v))) return true;
    const ys = [m.b * x0! + m.d * y0! + m.f, m.b * x1! + m.d * y0! + m.f, m.b * x0! + m.d * y1! + m.f, m.b * x1! + m.d * y1! + m.f];
    const half = ((cur.lineWidth ?? 1) * Math.sqrt(Math.abs(m.a * m.d - m.b * m.c))) / 2;
    return !outside(Math.min(...ys) - half, Math.max(...ys) + half);
  };
  return {
    filter,
    attach(task) {
      internals = (task as RenderInternals)._internalRenderTask;
    },
  };
}
