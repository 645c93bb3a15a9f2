/**
 * A Vega-Lite spec drawn as SVG text in Node: compiled to Vega, run headless (renderer 'none': no
 * canvas, no DOM, no native module) and serialised. Text widths are estimated, not measured.
 */
import { parse, View } from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';

export async function renderSvg(spec: TopLevelSpec): Promise<string> {
  const view = new View(parse(compile(spec).spec), { renderer: 'none' });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}
