// The platform's installed data as public, read-only datasets: a few hundred Fashion-MNIST
// test images (Debian's dataset-fashion-mnist) and generated scenes, written once as PNG files
// with thumbnails under the picture storage root, each with its class as the label.
// Idempotent: files are named by their index in the source split (same bytes on every run),
// and rows are only added for indexes not yet imported.
import fs from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import { Dataset, Picture } from "../../models/index.ts";
// Pure file readers/generators shared with the sidecar's training code, so the pictures shown
// here are exactly the images the platform's models were trained and tested on.
import { readFashionMnistSplit } from "../../sidecar/data/fashionMnist.ts";
import { generateScenesSplit } from "../../sidecar/data/scenes.ts";
import { SEG_CLASSES, classesPresent, generateSegScenes, renderSegScene, SEG_SCENES_DEFAULT_SEED, SEG_SPLITS } from "../../sidecar/data/segScenes.ts";
import { generateCracksSplit } from "../../sidecar/data/cracks.ts";
import { readCifarDir } from "../../sidecar/data/cifar.ts";
import { VOC_CLASSES, readVocMultiLabel, resolveVocRoot, type VocMultiLabelSplit } from "../../sidecar/data/voc.ts";
import { readImageFolder } from "../../sidecar/data/imageFolder.ts";
import { VQA_IMAGE_SIZE, sceneQA } from "../../sidecar/vqa/scenesQA.ts";
import type { ImageDataset } from "../../sidecar/data/dataset.ts";
import type { SeedStep } from "./index.ts";
import { makeThumbnail } from "../../app/.server/pictures.server.ts";

const storageRoot = () => path.resolve(process.env.UPLOAD_DIR ?? "var/uploads");
const count = (name: string, fallback: number) => {
  const n = Number(process.env[name]);
  return Number.isInteger(n) && n > 0 ? n : fallback;
};

interface Source {
  slug: string;
  name: string;
  load(n: number): ImageDataset;
  count: number;
  /** A picture's label when it is not one class (the question-answer scenes list their objects). */
  labelOf?: (i: number) => string;
}

/** The held-out scenes of the question-answering model (docs/vqa.md): the pictures /UserQuery understands. */
function vqaScenes(n: number): ImageDataset {
  const px = VQA_IMAGE_SIZE * VQA_IMAGE_SIZE * 3;
  const images = new Float32Array(n * px);
  for (let i = 0; i < n; i++) images.set(sceneQA("test", i).image, i * px);
  return {
    name: "vqa-scenes/test",
    images,
    labels: new Int32Array(n),
    classNames: ["scene"],
    size: n,
    height: VQA_IMAGE_SIZE,
    width: VQA_IMAGE_SIZE,
    channels: 3,
  };
}
const vqaSceneLabel = (i: number) =>
  sceneQA("test", i)
    .objects.map((o) => `${o.color} ${o.shape}`)
    .join(", ");

/** The segmentation scenes' held-out split (docs/datasets.md): the pictures /UserImgsegmentation's network was scored on. */
function segScenes(n: number): ImageDataset {
  const ds = generateSegScenes("test", n);
  return { ...ds, labels: new Int32Array(n), classNames: ["scene"] };
}
// A picture's label lists the shapes its mask holds (the ground truth the page shows).
const segSceneLabel = (i: number) =>
  classesPresent(renderSegScene(SEG_SCENES_DEFAULT_SEED, SEG_SPLITS.test, i).mask)
    .map((c) => SEG_CLASSES[c])
    .join(", ");

const SOURCES: Source[] = [
  {
    slug: "fashion-mnist",
    name: "Fashion-MNIST (test split)",
    load: (n) => takeFirst(readFashionMnistSplit("test"), n),
    count: count("SEED_FASHION_MNIST_PICTURES", 300),
  },
  { slug: "scenes", name: "Scenes (generated, test split)", load: (n) => generateScenesSplit("test", n), count: count("SEED_SCENES_PICTURES", 120) },
  // Concrete inspection photos for crack detection (/twodresult): the generator's train split,
  // which the detector's thresholds were not tuned on (docs/crack-detection.md).
  {
    slug: "concrete-inspection",
    name: "Concrete inspection (generated)",
    load: (n) => generateCracksSplit("train", n),
    count: count("SEED_INSPECTION_PICTURES", 36),
  },
  {
    slug: "vqa-scenes",
    name: "Question-answer scenes (generated, held-out split)",
    load: vqaScenes,
    count: count("SEED_VQA_PICTURES", 48),
    labelOf: vqaSceneLabel,
  },
  {
    slug: "seg-scenes",
    name: "Segmentation scenes (generated, held-out split)",
    load: segScenes,
    count: count("SEED_SEG_SCENES_PICTURES", 48),
    labelOf: segSceneLabel,
  },
  // An operator's Pascal VOC 2012 (VOC_DIR): its val split at 224 px, each picture labelled with its
  // image-level classes, the pool /voc serves once a VOC-trained model is imported (docs/datasets.md).
  ...(process.env.VOC_DIR ? [vocSource(process.env.VOC_DIR)] : []),
  // An operator's CIFAR-10/100 binary folder (CIFAR_DIR) fills the gallery's CIFAR card with real samples.
  ...(process.env.CIFAR_DIR
    ? [
        {
          slug: "cifar",
          name: "CIFAR (test split)",
          load: (n: number) => takeFirst(readCifarDir(process.env.CIFAR_DIR!).test, n),
          count: count("SEED_CIFAR_PICTURES", 300),
        },
      ]
    : []),
  // An operator's ImageNet and COCO pictures (one sub-folder per class) for /imagenet and /coco
  // (app/routes/demos/imagenetDataset.tsx, coco.tsx): read at 224 px, the input size of the usual ImageNet models.
  ...operatorFolder("imagenet", "ImageNet (operator's pictures)", "IMAGENET_DIR", "SEED_IMAGENET_PICTURES"),
  ...operatorFolder("coco", "COCO (operator's pictures)", "COCO_DIR", "SEED_COCO_PICTURES"),
];

function operatorFolder(slug: string, name: string, env: string, countEnv: string) {
  const dir = process.env[env];
  if (!dir) return [];
  return [
    { slug, name, load: (n: number) => takeFirst(readImageFolder(dir, { height: 224, width: 224, channels: 3, name: slug }), n), count: count(countEnv, 200) },
  ];
}

function vocSource(dir: string): Source {
  let split: VocMultiLabelSplit | null = null;
  const read = (n: number) => (split ??= readVocMultiLabel(resolveVocRoot(dir), "val", { size: 224, limit: n }));
  return {
    slug: "voc",
    name: "Pascal VOC 2012 (val split)",
    load: (n) => {
      const s = read(n);
      return { name: s.name, height: 224, width: 224, channels: 3, classNames: ["voc"], size: s.size, images: s.images, labels: new Int32Array(s.size) };
    },
    count: count("SEED_VOC_PICTURES", 60),
    labelOf: (i) => VOC_CLASSES.filter((_, c) => split!.targets[i * VOC_CLASSES.length + c] === 1).join(", "),
  };
}

function takeFirst(ds: ImageDataset, n: number): ImageDataset {
  const size = Math.min(n, ds.size);
  const per = ds.height * ds.width * ds.channels;
  return { ...ds, size, images: ds.images.subarray(0, size * per), labels: ds.labels.subarray(0, size) };
}

async function exists(file: string) {
  return fs.access(file).then(
    () => true,
    () => false,
  );
}

/** Several seeds may share the storage root at once (test stacks): readers never see half a file. */
async function writeAtomically(file: string, bytes: Buffer) {
  const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  await fs.writeFile(tmp, bytes);
  await fs.rename(tmp, file);
}

async function importSource(src: Source): Promise<string> {
  // Already complete: skip reading the source at all (every test stack runs the seed).
  const existing = await Dataset.findOne({ where: { slug: src.slug } });
  if (existing) {
    const n = await Picture.count({ where: { datasetId: existing.id } });
    if (n >= src.count) return `${src.slug}: ${n} present`;
  }
  let ds: ImageDataset;
  try {
    ds = src.load(src.count);
  } catch (e) {
    return `${src.slug}: not installed on this server (${(e as Error).message.split(";")[0]})`;
  }
  const [dataset] = await Dataset.findOrCreate({
    where: { slug: src.slug },
    defaults: { name: src.name, ownerId: null, isPublic: true, slug: src.slug, dataKind: src.slug, classNames: JSON.stringify(ds.classNames) },
  });
  const dir = path.posix.join("datasets", "platform", src.slug);
  await fs.mkdir(path.join(storageRoot(), dir), { recursive: true });
  const have = new Set((await Picture.findAll({ where: { datasetId: dataset.id }, attributes: ["filePath"] })).map((p) => p.filePath));
  const per = ds.height * ds.width * ds.channels;
  const rows = [];
  for (let i = 0; i < ds.size; i++) {
    const filePath = `${dir}/${String(i).padStart(5, "0")}.png`;
    if (have.has(filePath)) continue;
    const thumbPath = `${dir}/${String(i).padStart(5, "0")}.thumb.png`;
    const full = path.join(storageRoot(), filePath);
    const thumbFull = path.join(storageRoot(), thumbPath);
    // Files are named by index and hold the same bytes on every run, so a file another seed
    // wrote (every test stack seeds a fresh database over one storage root) is used as it is:
    // encoding 550 PNGs and their thumbnails again was most of a seed's time.
    let size = (await exists(full)) && (await exists(thumbFull)) ? (await fs.stat(full)).size : 0;
    if (!size) {
      const raw = Buffer.alloc(per);
      for (let k = 0; k < per; k++) raw[k] = Math.round(Math.min(1, Math.max(0, ds.images[i * per + k])) * 255);
      const input = { raw: { width: ds.width, height: ds.height, channels: ds.channels as 1 | 3 } };
      const png = await sharp(raw, input).png().toBuffer();
      if (!(await exists(full))) await writeAtomically(full, png);
      // The same thumbnail as an upload's: at the size the grid shows it, hard pixel edges (docs/datasets.md "Thumbnails").
      if (!(await exists(thumbFull))) await writeAtomically(thumbFull, await makeThumbnail(png, ds.width, ds.height));
      size = png.length;
    }
    rows.push({
      datasetId: dataset.id,
      filePath,
      thumbPath,
      mimeType: "image/png",
      size,
      width: ds.width,
      height: ds.height,
      displayName: `${src.slug}-${i}.png`,
      label: src.labelOf ? src.labelOf(i) : ds.classNames[ds.labels[i]],
    });
  }
  for (let k = 0; k < rows.length; k += 200) await Picture.bulkCreate(rows.slice(k, k + 200));
  return `${src.slug}: ${rows.length} added, ${have.size} present`;
}

export const seedDatasets: SeedStep = {
  name: "installed datasets",
  async run() {
    const parts: string[] = [];
    for (const src of SOURCES) parts.push(await importSource(src));
    return parts.join("; ");
  },
};
