/**
 * Run by tests/picture_png_test.ts in a subprocess with reading limited to some folders: renders
 * a picture with a title twice and prints the PNGs' sizes and the font it got, so the test sees
 * what svg_raster.ts does (and says on stderr) when the CJK font, or every font, is out of reach.
 */
import { rasterFont, svgToPng } from "../reports/svg_raster.ts";

const svg =
  `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="40" font-family="sans-serif">` +
  `<text x="4" y="24" font-size="16">leg 1 起点</text></svg>`;
const a = await svgToPng(svg), b = await svgToPng(svg);
console.log(JSON.stringify({ font: await rasterFont(), sizes: [a.length, b.length] }));
