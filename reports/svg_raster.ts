/**
 * SVG → PNG with a real SVG renderer and a real font (issue 53): the triage PNGs are the same
 * drawing as the report's drill-down SVG and `plan --svg` (titles, legend, scale bar and the
 * planner's Chinese message included), rendered by resvg (`npm:@resvg/resvg-wasm`: WebAssembly,
 * no native binary). Any SVG string renders, so the run pictures of reports/run_picture.ts do
 * too.
 *
 * The font: the first CJK font found on the system ({@link CJK_FONTS}; Debian's fonts-noto-cjk,
 * which `deno task test` provisions, is first), else a Latin one ({@link LATIN_FONTS}): the
 * pictures then render without Chinese glyphs, and stderr says so once. With no font at all the
 * text is left out (resvg draws no text without a font), said once too; nothing crashes.
 * The wasm module and the font bytes are loaded once per process.
 * @module
 */
import { NavscopeError } from "../src/errors.ts";

/** A font file the renderer may load, with the family name the SVG's `sans-serif` maps to. */
export interface FontCandidate {
  /** Path of a TTF, OTF or TTC file. */
  path: string;
  /** Family name inside it (for a collection: the face to use). */
  family: string;
}

/**
 * CJK fonts, in the order tried: Debian/Ubuntu's fonts-noto-cjk (TTC and the older OTF layout),
 * Fedora/Arch's Noto CJK, macOS PingFang, Windows' Microsoft YaHei.
 */
export const CJK_FONTS: readonly FontCandidate[] = [
  { path: "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc", family: "Noto Sans CJK SC" },
  { path: "/usr/share/fonts/opentype/noto/NotoSansCJKsc-Regular.otf", family: "Noto Sans CJK SC" },
  {
    path: "/usr/share/fonts/google-noto-cjk/NotoSansCJK-Regular.ttc",
    family: "Noto Sans CJK SC",
  },
  { path: "/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc", family: "Noto Sans CJK SC" },
  { path: "/System/Library/Fonts/PingFang.ttc", family: "PingFang SC" },
  { path: "C:\\Windows\\Fonts\\msyh.ttc", family: "Microsoft YaHei" },
];

/** Latin fonts tried when no CJK font is found. */
export const LATIN_FONTS: readonly FontCandidate[] = [
  { path: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", family: "DejaVu Sans" },
  {
    path: "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
    family: "Liberation Sans",
  },
  { path: "/usr/share/fonts/dejavu-sans-fonts/DejaVuSans.ttf", family: "DejaVu Sans" },
  { path: "/System/Library/Fonts/Helvetica.ttc", family: "Helvetica" },
  { path: "C:\\Windows\\Fonts\\arial.ttf", family: "Arial" },
];

/** The font the renderer uses. */
export interface RasterFont {
  /** The file loaded ("" when none was found). */
  path: string;
  family: string;
  /** Whether it has CJK glyphs (a font of {@link CJK_FONTS}). */
  cjk: boolean;
}

/** Options of {@link svgToPng}. */
export interface RasterOptions {
  /** Longest side of the PNG, pixels (default 1800): a larger SVG is scaled down to it. */
  maxSide?: number;
  /** Background (default white: a comment shows PNGs on light and dark themes). */
  background?: string;
}

interface Loaded {
  font: RasterFont;
  buffers: Uint8Array[];
}

/** The part of `@resvg/resvg-wasm`'s API used here (its index.d.ts). */
interface ResvgModule {
  initWasm(module: Promise<Uint8Array> | Uint8Array): Promise<void>;
  Resvg: new (svg: string, options?: Record<string, unknown>) => {
    render(): {
      asPng(): Uint8Array;
      readonly width: number;
      readonly height: number;
      readonly pixels: Uint8Array;
      free(): void;
    };
    free(): void;
  };
}

let loading: Promise<Loaded> | null = null;
let resvg: ResvgModule | null = null;

/** Where the font came from; the first call loads the wasm module and the font. */
export function rasterFont(): Promise<RasterFont> {
  return load().then((l) => l.font);
}

function load(): Promise<Loaded> {
  loading ??= (async () => {
    // As report_page.ts does for chart.js: import.meta.resolve installs the pinned package into
    // node_modules/ (nodeModulesDir auto) and gives its ESM entry, with the package's own .wasm
    // beside it (no network at run time, no native binary). Imported by a computed URL so that
    // mod.ts's module graph stays free of npm: specifiers (tests/library_use_test.ts).
    const entry = import.meta.resolve("@resvg/resvg-wasm");
    resvg = await import(entry) as ResvgModule;
    await resvg.initWasm(Deno.readFile(new URL("./index_bg.wasm", entry)));
    for (const [list, isCjk] of [[CJK_FONTS, true], [LATIN_FONTS, false]] as const) {
      for (const c of list) {
        const bytes = await readFont(c.path);
        if (!bytes) continue;
        if (!isCjk) {
          console.error(
            `navscope: no CJK font found (tried ${
              CJK_FONTS.map((f) => f.path).join(", ")
            }; Debian: apt-get install fonts-noto-cjk): pictures are drawn with ${c.family}, without Chinese glyphs`,
          );
        }
        return { font: { path: c.path, family: c.family, cjk: isCjk }, buffers: [bytes] };
      }
    }
    console.error(
      "navscope: no font found (Debian: apt-get install fonts-noto-cjk): pictures are drawn without text",
    );
    return { font: { path: "", family: "", cjk: false }, buffers: [] };
  })();
  return loading;
}

async function readFont(path: string): Promise<Uint8Array | null> {
  try {
    return await Deno.readFile(path);
  } catch {
    // Absent, or not readable under this process's permissions: try the next one.
    return null;
  }
}

/** The root's display size (width/height attributes, else the viewBox), pixels. */
function svgSize(svg: string): [number, number] | null {
  const root = /<svg\b[^>]*>/.exec(svg)?.[0] ?? "";
  const w = /\swidth="([\d.]+)"/.exec(root)?.[1], h = /\sheight="([\d.]+)"/.exec(root)?.[1];
  if (w && h) return [+w, +h];
  const vb = /\sviewBox="[\d.-]+\s+[\d.-]+\s+([\d.]+)\s+([\d.]+)"/.exec(root);
  return vb ? [+vb[1], +vb[2]] : null;
}

/**
 * resvg 2.6.2 panics (surfacing as "recursive use of an object") on a clipped group holding a
 * shape wholly outside the clip at negative coordinates, which the pictures have (a no-go
 * polygon, a log track or a landmark far from the crop). So a map clipped to a box at the origin
 * — a nested `<svg overflow="hidden">` (leg_svg.ts, log_picture.ts) or a group clipped by a
 * `<clipPath>` holding one such rect (render_world.ts) — is drawn unclipped, and what spills
 * right of or below the box is painted over with the background before what follows (the panel)
 * is drawn; left of and above the origin is off the canvas anyway.
 */
export function unclipMaps(svg: string, background: string): string {
  const cover = (w: string, h: string) =>
    `<rect x="${w}" y="0" width="1e6" height="1e6" fill="${background}"/>` +
    `<rect x="0" y="${h}" width="1e6" height="1e6" fill="${background}"/>`;
  // Nested viewports at the origin.
  svg = rewrite(svg, /<svg\b([^>]*)\soverflow="hidden"([^>]*)>/g, "svg", (attrs) => {
    const w = attr(attrs, "width"), h = attr(attrs, "height");
    if (!w || !h || /\s[xy]="/.test(attrs)) return null;
    return { open: `<svg${attrs} overflow="visible">`, after: cover(w, h) };
  });
  // Groups clipped to one rect at the origin.
  for (const m of svg.matchAll(/<clipPath id="([\w-]+)"><rect([^>]*)\/><\/clipPath>/g)) {
    const w = attr(m[2], "width"), h = attr(m[2], "height");
    if (!w || !h || /\s[xy]="(?!0")/.test(m[2])) continue;
    const id = m[1].replace(/[-]/g, "\\-");
    const open = new RegExp(`<g\\b([^>]*)\\sclip-path="url\\(#${id}\\)"([^>]*)>`, "g");
    svg = rewrite(svg, open, "g", (attrs) => ({ open: `<g${attrs}>`, after: cover(w, h) }));
  }
  return svg;
}

function attr(attrs: string, name: string): string | undefined {
  return new RegExp(`\\s${name}="([\\d.]+)"`).exec(attrs)?.[1];
}

/**
 * Replaces each `open` match (an element `tag`) by `edit(attrs).open` and puts `edit.after`
 * behind its matching close tag; `edit` returning null leaves the element as it is.
 */
function rewrite(
  svg: string,
  open: RegExp,
  tag: string,
  edit: (attrs: string) => { open: string; after: string } | null,
): string {
  let out = "", last = 0;
  for (let m; (m = open.exec(svg));) {
    const e = edit(m[1] + m[2]);
    const close = closeOf(svg, open.lastIndex, tag);
    if (!e || close < 0) continue;
    out += svg.slice(last, m.index) + e.open + svg.slice(open.lastIndex, close) + `</${tag}>` +
      e.after;
    last = close + tag.length + 3;
    open.lastIndex = last;
  }
  return out + svg.slice(last);
}

/** Index of the `</tag>` closing an element whose content starts at `from`, or −1. */
function closeOf(svg: string, from: number, tag: string): number {
  const re = new RegExp(`<${tag}\\b[^>]*?(/?)>|</${tag}>`, "g");
  re.lastIndex = from;
  let depth = 1;
  for (let m; (m = re.exec(svg));) {
    if (m[0].startsWith("</")) {
      if (--depth === 0) return m.index;
    } else if (m[1] !== "/") depth++;
  }
  return -1;
}

/** Renders `svg` as PNG bytes (deterministic for the same SVG and font). */
export async function svgToPng(svg: string, opts: RasterOptions = {}): Promise<Uint8Array> {
  const img = await render(svg, opts);
  return img.png;
}

/** Renders `svg`: the PNG and its RGBA pixels. */
export async function svgToRaster(
  svg: string,
  opts: RasterOptions = {},
): Promise<{ png: Uint8Array; width: number; height: number; rgba: Uint8Array }> {
  return await render(svg, opts);
}

let warnedPlain = false;

/**
 * The SVG without the effects that make resvg draw into a layer of its own — markers, group
 * opacity, clips, masks, filters — whose bounds resvg 2.6.2 mishandles when they lie wholly
 * outside the canvas (see {@link unclipMaps}). The fallback drawing when the full one fails.
 */
export function plainEffects(svg: string): string {
  return svg.replace(/\s(?:marker-(?:start|mid|end)|clip-path|mask|filter)="[^"]*"/g, "")
    .replace(/(<g\b[^>]*?)\sopacity="[^"]*"/g, "$1");
}

async function render(svg: string, opts: RasterOptions) {
  const background = opts.background ?? "#ffffff";
  const unclipped = unclipMaps(svg, background);
  try {
    return await renderOnce(unclipped, opts, background);
  } catch (e) {
    try {
      const out = await renderOnce(plainEffects(unclipped), opts, background);
      if (!warnedPlain) {
        console.error(
          `navscope: the SVG renderer failed on a picture (${
            (e as Error).message
          }); drawn again without markers, clips and group opacity`,
        );
        warnedPlain = true;
      }
      return out;
    } catch (e2) {
      throw new NavscopeError(
        "bad_value",
        `the SVG renderer (resvg) cannot draw this picture: ${(e2 as Error).message}`,
      );
    }
  }
}

async function renderOnce(svg: string, opts: RasterOptions, background: string) {
  const { font, buffers } = await load();
  const max = opts.maxSide ?? 1800;
  const size = svgSize(svg);
  const long = size ? Math.max(size[0], size[1]) : 0;
  const r = new resvg!.Resvg(svg, {
    background,
    // Nearest-neighbour image scaling: the raster layers are 1 pixel per cell and meant to be
    // seen pixelated (image-rendering:pixelated in the SVG); smoothing them also costs about
    // three quarters of the render time.
    imageRendering: 1,
    ...(long > max ? { fitTo: { mode: "zoom" as const, value: max / long } } : {}),
    font: {
      fontBuffers: buffers,
      // Every family the pictures name maps to the loaded font.
      ...(font.family
        ? {
          defaultFontFamily: font.family,
          sansSerifFamily: font.family,
          serifFamily: font.family,
          monospaceFamily: font.family,
        }
        : {}),
    },
  });
  try {
    const out = r.render();
    try {
      return { png: out.asPng(), width: out.width, height: out.height, rgba: out.pixels };
    } finally {
      out.free();
    }
  } finally {
    r.free();
  }
}
