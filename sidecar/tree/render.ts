// The Tree service's downloads (proto/metarank/v1/tree.proto Export): the tree as an SVG laid out
// top down, the same drawing as a PDF, and the internal nodes' prototype patches as a zip. Every
// output is a function of the graph alone (no clock, no random ids): the same tree and edits give
// the same bytes, which the tests check and a cache may rely on.
//
// The SVG is written here as text (it is a handful of element kinds; an SVG library would add a
// DOM for nothing). The PDF is that SVG drawn by pdfkit through svg-to-pdfkit, so both downloads
// show the same picture; pdfkit's creation date and trailer id are fixed for the same reason as above.
import { PassThrough } from "node:stream";
import PDFDocument from "pdfkit";
import { PNG } from "pngjs";
import SVGtoPDF from "svg-to-pdfkit";
import yazl from "yazl";

/** What the renderers need of a node (the shape of proto TreeNode). */
export interface RenderNode {
  id: string;
  name: string;
  kind: "internal" | "leaf" | string;
  children: string[];
  imagePng?: Uint8Array | null;
  distribution: number[];
  depth: number;
  edited: boolean;
}

export interface RenderGraph {
  treeId: string;
  /** Shown in the drawing's title line: which model and which data. */
  title: string;
  root: string;
  nodes: RenderNode[];
  classNames: string[];
}

// Layout constants, in SVG user units (1 unit = 1 px = 0.75 pt in the PDF, before scaling).
const SLOT = 132; // horizontal room per leaf
const LEVEL = 200; // vertical distance between depths
const IMG = 96; // prototype picture side
const LEAF_W = 112;
const LEAF_H = 56;
const TOP = 64; // room for the title
const MARGIN = 24;

export interface Placed {
  node: RenderNode;
  x: number;
  y: number;
  level: number;
}

/**
 * Top-down layout: leaves take consecutive slots from left to right in depth-first order (left
 * child first), and an internal node sits midway between its first and last child, so no two
 * subtrees overlap and edges never cross. Levels are counted from the root along the shown
 * (possibly pruned) tree.
 */
export function layoutTree(g: RenderGraph): { placed: Map<string, Placed>; width: number; height: number } {
  const byId = new Map(g.nodes.map((n) => [n.id, n]));
  const placed = new Map<string, Placed>();
  let slot = 0;
  let maxLevel = 0;
  const visit = (id: string, level: number, seen: Set<string>): number => {
    const node = byId.get(id);
    if (!node) throw new Error(`the tree names a node "${id}" it does not have`);
    if (seen.has(id)) throw new Error(`node "${id}" appears twice in the tree`);
    seen.add(id);
    maxLevel = Math.max(maxLevel, level);
    const y = TOP + MARGIN + level * LEVEL;
    const kids = node.children.filter((c) => byId.has(c));
    let x: number;
    if (kids.length === 0) x = MARGIN + SLOT / 2 + SLOT * slot++;
    else {
      const xs = kids.map((c) => visit(c, level + 1, seen));
      x = (xs[0] + xs[xs.length - 1]) / 2;
    }
    placed.set(id, { node, x, y, level });
    return x;
  };
  visit(g.root, 0, new Set());
  return { placed, width: Math.max(480, 2 * MARGIN + SLOT * slot), height: TOP + 2 * MARGIN + maxLevel * LEVEL + IMG + 40 };
}

export function xmlEscape(s: string): string {
  return s.replace(/[<>&"']/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;", "'": "&apos;" })[c]!);
}

/**
 * The picture re-encoded as RGB without an alpha channel: pdfkit splits an alpha channel off with
 * asynchronous zlib calls, whose completion order decides the PDF's object order, so RGBA pictures
 * (what sidecar/data/png.ts encodePng writes, alpha always opaque) gave different bytes each time.
 */
export function opaquePng(png: Uint8Array): Buffer {
  const img = PNG.sync.read(Buffer.from(png));
  return PNG.sync.write(img, { colorType: 2, inputColorType: 6, inputHasAlpha: true });
}

const n2 = (v: number) => (Math.round(v * 100) / 100).toString();

function topClass(dist: number[]): number {
  let top = 0;
  for (let c = 1; c < dist.length; c++) if (dist[c] > dist[top]) top = c;
  return top;
}

/**
 * The tree as SVG: internal nodes as their prototype patch (embedded PNG data URI) under the
 * node's name, leaves as a vector bar chart of the class distribution with the top class's name
 * and probability; edges from a node to its children labelled as ProtoTree's routing reads them
 * (left: prototype absent, right: present). Edited nodes are framed in orange.
 */
export function treeSvg(g: RenderGraph): string {
  const { placed, width, height } = layoutTree(g);
  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="Helvetica, Arial, sans-serif">`,
    `<title>${xmlEscape(g.title)}</title>`,
    `<rect x="0" y="0" width="${width}" height="${height}" fill="#ffffff"/>`,
    `<text x="${MARGIN}" y="${MARGIN + 14}" font-size="18" fill="#111111">${xmlEscape(g.title)}</text>`,
  );
  // Edges first, so nodes are drawn over them; in a fixed order (placement order is depth-first).
  const order = [...placed.values()];
  for (const p of order) {
    const kids = p.node.children.map((c) => placed.get(c)).filter((c): c is Placed => Boolean(c));
    kids.forEach((k, i) => {
      const y0 = p.y + IMG + 22;
      const y1 = k.y - 4;
      out.push(`<line x1="${n2(p.x)}" y1="${n2(y0)}" x2="${n2(k.x)}" y2="${n2(y1)}" stroke="#555555" stroke-width="1.5"/>`);
      if (kids.length === 2) {
        const label = i === 0 ? "absent" : "present";
        const mx = (p.x + k.x) / 2 + (i === 0 ? -6 : 6);
        out.push(`<text x="${n2(mx)}" y="${n2((y0 + y1) / 2)}" font-size="12" fill="#555555" text-anchor="${i === 0 ? "end" : "start"}">${label}</text>`);
      }
    });
  }
  for (const p of order) {
    const { node } = p;
    const frame = node.edited ? "#f97316" : "#333333";
    if (node.kind === "leaf") {
      const x0 = p.x - LEAF_W / 2;
      const y0 = p.y;
      out.push(`<g id="${xmlEscape(`node-${node.id}`)}">`);
      out.push(
        `<rect x="${n2(x0)}" y="${n2(y0)}" width="${LEAF_W}" height="${LEAF_H}" fill="#ffffff" stroke="${frame}" stroke-width="${node.edited ? 3 : 1}"/>`,
      );
      const d = node.distribution;
      const n = Math.max(1, d.length);
      const bw = (LEAF_W - 8) / n;
      const top = topClass(d);
      d.forEach((v, c) => {
        const h = Math.max(0, Math.min(1, v)) * (LEAF_H - 8);
        if (h <= 0) return;
        out.push(
          `<rect x="${n2(x0 + 4 + c * bw)}" y="${n2(y0 + LEAF_H - 4 - h)}" width="${n2(Math.max(0.5, bw * 0.85))}" height="${n2(h)}" fill="${c === top ? "#6366f1" : "#999999"}"/>`,
        );
      });
      const cls = g.classNames[top] ?? `class ${top}`;
      out.push(`<text x="${n2(p.x)}" y="${n2(y0 + LEAF_H + 16)}" font-size="13" text-anchor="middle" fill="#111111">${xmlEscape(cls)}</text>`);
      out.push(
        `<text x="${n2(p.x)}" y="${n2(y0 + LEAF_H + 32)}" font-size="11" text-anchor="middle" fill="#555555">${xmlEscape(`${node.name} · p=${(d[top] ?? 0).toFixed(2)}`)}</text>`,
      );
      out.push(`</g>`);
    } else {
      const x0 = p.x - IMG / 2;
      out.push(`<g id="${xmlEscape(`node-${node.id}`)}">`);
      out.push(`<text x="${n2(p.x)}" y="${n2(p.y + 12)}" font-size="13" text-anchor="middle" fill="#111111">${xmlEscape(node.name)}</text>`);
      if (node.imagePng && node.imagePng.length > 0) {
        const uri = `data:image/png;base64,${opaquePng(node.imagePng).toString("base64")}`;
        out.push(
          `<image x="${n2(x0)}" y="${n2(p.y + 18)}" width="${IMG}" height="${IMG}" preserveAspectRatio="xMidYMid meet" style="image-rendering:pixelated" href="${uri}" xlink:href="${uri}"/>`,
        );
      }
      out.push(`<rect x="${n2(x0)}" y="${n2(p.y + 18)}" width="${IMG}" height="${IMG}" fill="none" stroke="${frame}" stroke-width="${node.edited ? 3 : 1}"/>`);
      out.push(`</g>`);
    }
  }
  out.push(`</svg>`);
  return out.join("\n");
}

/** PDF's largest page side (Acrobat's limit of 200 inches = 14 400 pt); larger drawings are scaled to fit. */
const MAX_PAGE_PT = 14_400;
const FIXED_DATE = new Date(Date.UTC(2024, 0, 1));

/** The SVG drawn on one PDF page of the drawing's size (scaled down only if over the PDF limit). */
export function treePdf(svg: string, width: number, height: number, title: string): Promise<Buffer> {
  const pt = 0.75; // 1 CSS px = 0.75 pt
  const scale = Math.min(pt, MAX_PAGE_PT / width, MAX_PAGE_PT / height);
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({
      size: [Math.ceil(width * scale), Math.ceil(height * scale)],
      margin: 0,
      autoFirstPage: true,
      info: { Title: title, Producer: "Meta-Rank", Creator: "Meta-Rank Tree service", CreationDate: FIXED_DATE, ModDate: FIXED_DATE },
    });
    const parts: Buffer[] = [];
    doc.on("data", (b: Buffer) => parts.push(b));
    doc.on("end", () => resolve(Buffer.concat(parts)));
    doc.on("error", reject);
    try {
      SVGtoPDF(doc, svg, 0, 0, { width: width * scale, height: height * scale, assumePt: false });
      doc.end();
    } catch (err) {
      reject(err);
    }
  });
}

/** Same bytes in every time zone: yazl writes DOS times from local fields (see sidecar/kit/buildKit.ts). */
const ENTRY_OPTIONS = { mtime: new Date(2024, 0, 1, 0, 0, 0), forceDosTimestamp: true, compress: false } as const;

/** The internal nodes' prototype patches, one PNG each, named by node id, plus an index.csv. */
export function prototypesZip(g: RenderGraph): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  const rows = ["node_id,name,file,edited"];
  const internals = g.nodes.filter((n) => n.kind !== "leaf" && n.imagePng && n.imagePng.length > 0).sort((a, b) => a.id.localeCompare(b.id, "en"));
  for (const n of internals) {
    const file = `prototypes/${n.id.replace(/[^A-Za-z0-9._-]/g, "_")}.png`;
    // PNG is already compressed: stored, not deflated.
    zip.addBuffer(Buffer.from(n.imagePng!), file, ENTRY_OPTIONS);
    rows.push([n.id, n.name, file, n.edited ? "yes" : "no"].map((v) => (/[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v)).join(","));
  }
  zip.addBuffer(Buffer.from(`# ${g.title}\n${rows.join("\n")}\n`), "index.csv", { ...ENTRY_OPTIONS, compress: true });
  zip.end();
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    const sink = new PassThrough();
    sink.on("data", (b: Buffer) => parts.push(b));
    sink.on("end", () => resolve(Buffer.concat(parts)));
    sink.on("error", reject);
    zip.outputStream.pipe(sink);
  });
}

/** An export's bytes, content type and file name. */
export async function renderExport(g: RenderGraph, format: string, fileStem: string): Promise<{ data: Buffer; contentType: string; fileName: string }> {
  if (format === "svg") return { data: Buffer.from(treeSvg(g), "utf8"), contentType: "image/svg+xml", fileName: `${fileStem}.svg` };
  if (format === "pdf") {
    const svg = treeSvg(g);
    const { width, height } = layoutTree(g);
    return { data: await treePdf(svg, width, height, g.title), contentType: "application/pdf", fileName: `${fileStem}.pdf` };
  }
  if (format === "prototypes.zip") return { data: await prototypesZip(g), contentType: "application/zip", fileName: `${fileStem}-prototypes.zip` };
  throw new Error(`unknown export format "${format}"`);
}
