// "Question-answer scenes": a CLEVR-style visual question answering dataset generated here
// (docs/vqa.md "The data"). Each 32×32 RGB image shows 2–4 objects on distinct cells of a 3×3 grid
// (jittered inside their cell) over a plain grey, lightly shaded background; every object has one
// of four colours and one of three shapes. Each image comes with questions of five types whose
// answers follow from the object list: colour, shape, count, existence and relative position.
// Answers are balanced per type and per template family (yes/no 50/50), so a question's wording
// alone does not give its answer away. Everything derives from (seed, split, index), so the data
// are identical on every machine, and the train and test splits are separate random streams that
// never share an image.
import { Rng, mixSeed } from "../data/prng.ts";
import { hsv, insideShape, SCENE_CLASSES, type Rgb } from "../data/scenes.ts";
import {
  VQA_COLORS,
  VQA_SHAPES,
  VQA_NUMBERS,
  type VqaColor,
  type VqaShape,
  QUESTION_TYPES,
  type QuestionType,
  VQA_COLORS_ZH,
  VQA_SHAPES_ZH,
  RELATIONS_ZH,
  MAX_QUESTION_TOKENS,
  tokenize,
  padIds,
  answerIndex,
} from "./vqaWords.ts";

export const VQA_IMAGE_SIZE = 32;
export const VQA_DEFAULT_SEED = 20261124;
/** Training images an epoch (train.ts reads new ones every epoch by default). */
export const VQA_TRAIN_IMAGES = 6000;
/** The held-out set: test images 0 … 999. */
export const VQA_TEST_IMAGES = 1000;
/** Questions asked about each image per question type (fewer when a type has no valid question). */
export const VQA_QUESTIONS_PER_TYPE = 2;
export const GRID = 3;

export interface SceneObject {
  color: VqaColor;
  shape: VqaShape;
  /** Grid cell: row 0 is the top, column 0 the left. */
  row: number;
  col: number;
  /** Centre and radius in pixels. */
  cx: number;
  cy: number;
  radius: number;
}

export interface QA {
  question: string;
  /** The same question in Chinese (the same family's Chinese template). */
  questionZh: string;
  answer: string;
  /** Index of the answer in VQA_ANSWERS. */
  answerIndex: number;
  type: QuestionType;
}

export interface SceneQA {
  /** H × W × 3 in [0, 1]. */
  image: Float32Array;
  objects: SceneObject[];
  questions: QA[];
}

export type VqaSplit = "train" | "test";
const SPLIT_CODE: Record<VqaSplit, number> = { train: 0, test: 1 };

const HUE: Record<VqaColor, [number, number]> = {
  red: [0.0, 0.02],
  green: [0.33, 0.03],
  blue: [0.62, 0.03],
  yellow: [0.155, 0.015],
};

/** The objects of a scene: 2–4 on distinct grid cells, jittered inside their cell. */
export function sampleObjects(rng: Rng, size = VQA_IMAGE_SIZE): SceneObject[] {
  const n = rng.int(2, 4);
  const cells = rng.permutation(GRID * GRID).subarray(0, n);
  const cell = size / GRID;
  const objects: SceneObject[] = [];
  for (const c of cells) {
    const row = Math.floor(c / GRID),
      col = c % GRID;
    const radius = rng.uniform(0.36, 0.44) * cell;
    const jitter = 0.12 * cell;
    objects.push({
      color: rng.pick(VQA_COLORS),
      shape: rng.pick(VQA_SHAPES),
      row,
      col,
      cx: (col + 0.5) * cell + rng.uniform(-jitter, jitter),
      cy: (row + 0.5) * cell + rng.uniform(-jitter, jitter),
      radius,
    });
  }
  return objects;
}

/** Renders the objects over a plain, lightly shaded grey background, with mild sensor noise. */
export function renderObjects(rng: Rng, objects: readonly SceneObject[], size = VQA_IMAGE_SIZE): Float32Array {
  const px = new Float32Array(size * size * 3);
  const bg = hsv(rng.float(), rng.uniform(0, 0.12), rng.uniform(0.3, 0.65));
  const gAngle = rng.uniform(0, 2 * Math.PI),
    gAmp = rng.uniform(0, 0.08);
  for (let y = 0; y < size; y++)
    for (let x = 0; x < size; x++) {
      const t = ((x / size - 0.5) * Math.cos(gAngle) + (y / size - 0.5) * Math.sin(gAngle)) * 2 * gAmp;
      for (let c = 0; c < 3; c++) px[(y * size + x) * 3 + c] = bg[c] + t;
    }
  for (const o of objects) {
    const [h0, dh] = HUE[o.color];
    const col: Rgb = hsv((rng.uniform(h0 - dh, h0 + dh) + 1) % 1, rng.uniform(0.7, 1), rng.uniform(0.75, 1));
    const cls = SCENE_CLASSES.indexOf(o.shape);
    const rot = o.shape === "square" ? rng.uniform(-0.2, 0.2) : o.shape === "triangle" ? rng.uniform(-0.1, 0.1) : 0;
    const cosR = Math.cos(rot),
      sinR = Math.sin(rot);
    // A triangle's centroid sits at the centre of its circumcircle; shift it down a little so
    // it looks centred in its cell like the other shapes.
    const cy = o.shape === "triangle" ? o.cy + 0.25 * o.radius : o.cy;
    for (let y = Math.floor(cy - o.radius - 1); y <= cy + o.radius + 1; y++)
      for (let x = Math.floor(o.cx - o.radius - 1); x <= o.cx + o.radius + 1; x++) {
        if (x < 0 || y < 0 || x >= size || y >= size) continue;
        // 3×3 supersampling for anti-aliased edges.
        let cover = 0;
        for (const oy of [1 / 6, 0.5, 5 / 6])
          for (const ox of [1 / 6, 0.5, 5 / 6]) {
            const dx = (x + ox - o.cx) / o.radius,
              dy = (y + oy - cy) / o.radius;
            if (insideShape(cls, dx * cosR + dy * sinR, -dx * sinR + dy * cosR)) cover++;
          }
        if (cover === 0) continue;
        const a = cover / 9;
        for (let c = 0; c < 3; c++) {
          const i = (y * size + x) * 3 + c;
          px[i] = px[i] * (1 - a) + col[c] * a;
        }
      }
  }
  for (let i = 0; i < px.length; i++) px[i] = Math.min(1, Math.max(0, px[i] + 0.02 * rng.normal()));
  return px;
}

// ---- questions ------------------------------------------------------------------

const plural = (s: VqaShape) => `${s}s`;
const countWord = (n: number) => VQA_NUMBERS[n];

/**
 * A candidate question. `key` names what it asks (paraphrases of one question share a key);
 * `form` is its template family (e.g. "is there a <colour> <shape>" or "… left of …"), the unit
 * within which answers are balanced so the question's wording alone does not give the answer away.
 */
export interface CandidateQA extends QA {
  key: string;
  form: string;
}

function qa(form: string, key: string, question: string, questionZh: string, answer: string, type: QuestionType): CandidateQA {
  return { form, key, question, questionZh, answer, answerIndex: answerIndex(answer), type };
}

const zhColor = (c: VqaColor) => VQA_COLORS_ZH[c];
const zhShape = (s: VqaShape) => VQA_SHAPES_ZH[s];

/** The candidates grouped by a key, groups in first-appearance order. */
function groupBy(items: CandidateQA[], keyOf: (c: CandidateQA) => string): CandidateQA[][] {
  const m = new Map<string, CandidateQA[]>();
  for (const c of items) {
    const k = keyOf(c);
    const g = m.get(k);
    if (g) g.push(c);
    else m.set(k, [c]);
  }
  return [...m.values()];
}

/**
 * Draws one candidate. Yes/no, colour and shape questions: an answer uniformly among those some
 * candidate has, then a form uniformly among the forms with that answer, then a question (so
 * each type is yes/no 50/50 and no form leans to one answer). Counts: a form first, then an
 * answer uniformly among the form's, then a question.
 */
function drawBalanced(rng: Rng, candidates: CandidateQA[], type: QuestionType): CandidateQA | null {
  if (candidates.length === 0) return null;
  const byAnswer = (cs: CandidateQA[]) => groupBy(cs, (c) => c.answer);
  const byForm = (cs: CandidateQA[]) => groupBy(cs, (c) => c.form);
  const group = type === "count" ? rng.pick(byAnswer(rng.pick(byForm(candidates)))) : rng.pick(byForm(rng.pick(byAnswer(candidates))));
  return rng.pick(group);
}

/** Every question of one type that has a well-defined answer for these objects. */
export function candidateQuestions(objects: readonly SceneObject[], type: QuestionType): CandidateQA[] {
  const count = (pred: (o: SceneObject) => boolean) => objects.filter(pred).length;
  const out: CandidateQA[] = [];
  /** A question about every colour and shape pair, given how many objects are of that colour and shape. */
  const forColourShape = (ask: (c: VqaColor, s: VqaShape, n: number) => CandidateQA) => {
    for (const c of VQA_COLORS)
      for (const s of VQA_SHAPES)
        out.push(
          ask(
            c,
            s,
            count((o) => o.color === c && o.shape === s),
          ),
        );
  };
  switch (type) {
    case "colour":
      // Only about a shape that occurs exactly once, so "the <shape>" is unambiguous.
      for (const s of VQA_SHAPES) {
        const hits = objects.filter((o) => o.shape === s);
        if (hits.length !== 1) continue;
        out.push(
          qa("colour", s, `what color is the ${s}?`, `${zhShape(s)}是什么颜色？`, hits[0].color, type),
          qa("colour", s, `what is the color of the ${s}?`, `${zhShape(s)}的颜色是什么？`, hits[0].color, type),
        );
      }
      break;
    case "shape":
      for (const c of VQA_COLORS) {
        const hits = objects.filter((o) => o.color === c);
        if (hits.length !== 1) continue;
        out.push(
          qa("shape", c, `what shape is the ${c} object?`, `${zhColor(c)}的物体是什么形状？`, hits[0].shape, type),
          qa("shape", c, `what is the shape of the ${c} object?`, `${zhColor(c)}的物体的形状是什么？`, hits[0].shape, type),
        );
      }
      break;
    case "count":
      out.push(qa("all", "all", "how many objects are there?", "有几个物体？", countWord(objects.length), type));
      for (const c of VQA_COLORS)
        out.push(qa("colour", c, `how many ${c} objects are there?`, `有几个${zhColor(c)}的物体？`, countWord(count((o) => o.color === c)), type));
      for (const s of VQA_SHAPES)
        out.push(qa("shape", s, `how many ${plural(s)} are there?`, `有几个${zhShape(s)}？`, countWord(count((o) => o.shape === s)), type));
      forColourShape((c, s, n) =>
        qa("colour shape", `${c} ${s}`, `how many ${c} ${plural(s)} are there?`, `有几个${zhColor(c)}${zhShape(s)}？`, countWord(n), type),
      );
      break;
    case "exist": {
      const yn = (b: boolean) => (b ? "yes" : "no");
      forColourShape((c, s, n) => qa("colour shape", `${c} ${s}`, `is there a ${c} ${s}?`, `有${zhColor(c)}${zhShape(s)}吗？`, yn(n > 0), type));
      for (const s of VQA_SHAPES) out.push(qa("shape", s, `is there a ${s}?`, `有${zhShape(s)}吗？`, yn(count((o) => o.shape === s) > 0), type));
      for (const c of VQA_COLORS) out.push(qa("colour", c, `is there a ${c} object?`, `有${zhColor(c)}的物体吗？`, yn(count((o) => o.color === c) > 0), type));
      break;
    }
    case "position": {
      // Objects named "the <colour> <shape>" must be the only one of their kind. Relations
      // compare grid cells: "left of" is a smaller column, "above" a smaller row.
      const unique = objects.filter((o) => count((p) => p.color === o.color && p.shape === o.shape) === 1);
      for (const a of unique)
        for (const b of unique) {
          if (a === b) continue;
          const name = (o: SceneObject) => `${o.color} ${o.shape}`;
          const nameZh = (o: SceneObject) => `${zhColor(o.color)}${zhShape(o.shape)}`;
          // "B right of A" asks what "A left of B" asks: both get the key of the latter.
          const rel: Array<[string, boolean, string]> = [
            ["left of", a.col < b.col, `${name(a)} left of ${name(b)}`],
            ["right of", a.col > b.col, `${name(b)} left of ${name(a)}`],
            ["above", a.row < b.row, `${name(a)} above ${name(b)}`],
            ["below", a.row > b.row, `${name(b)} above ${name(a)}`],
          ];
          for (const [r, holds, key] of rel)
            out.push(qa(r, key, `is the ${name(a)} ${r} the ${name(b)}?`, `${nameZh(a)}在${nameZh(b)}的${RELATIONS_ZH[r]}吗？`, holds ? "yes" : "no", type));
        }
      break;
    }
  }
  return out;
}

/** Up to `perType` distinct questions of every type, answer-balanced within the type and form. */
export function generateQuestions(rng: Rng, objects: readonly SceneObject[], perType = VQA_QUESTIONS_PER_TYPE): QA[] {
  const out: QA[] = [];
  for (const type of QUESTION_TYPES) {
    let candidates = candidateQuestions(objects, type);
    for (let k = 0; k < perType; k++) {
      const q = drawBalanced(rng, candidates, type);
      if (!q) break;
      out.push({ question: q.question, questionZh: q.questionZh, answer: q.answer, answerIndex: q.answerIndex, type: q.type });
      candidates = candidates.filter((c) => c.key !== q.key);
    }
  }
  return out;
}

/** Scene `index` of a split: its image, its objects and its questions with their answers. */
export function sceneQA(split: VqaSplit, index: number, seed = VQA_DEFAULT_SEED): SceneQA {
  const rng = new Rng(mixSeed(seed, SPLIT_CODE[split], index));
  const objects = sampleObjects(rng);
  const image = renderObjects(rng, objects);
  const questions = generateQuestions(rng, objects);
  return { image, objects, questions };
}

/** A split in the arrays training and evaluation read. */
export interface VqaSet {
  split: VqaSplit;
  imageCount: number;
  /** imageCount × H × W × 3. */
  images: Float32Array;
  questionCount: number;
  /** questionCount × MAX_QUESTION_TOKENS token ids, PAD_ID-padded. */
  questionIds: Int32Array;
  /** Which image each question is about. */
  imageOf: Int32Array;
  answers: Int32Array;
  /** Index into QUESTION_TYPES. */
  types: Int32Array;
  questions: string[];
}

/**
 * Which language a set's questions are asked in: English, Chinese, each question in one of the two
 * at random (50/50), or each question in both (two rows). Training uses "both": with "mixed"
 * (one network, half the examples per language) the held-out position questions reached only
 * 60.4 % in either language after the usual 10 epochs, against 83.8 % for the English-only network
 * (docs/vqa.md "Chinese").
 */
export type VqaLanguage = "en" | "zh" | "mixed" | "both";

export function generateVqaSet(split: VqaSplit, imageCount: number, seed = VQA_DEFAULT_SEED, offset = 0, language: VqaLanguage = "en"): VqaSet {
  const px = VQA_IMAGE_SIZE * VQA_IMAGE_SIZE * 3;
  const images = new Float32Array(imageCount * px);
  const rows: Array<{ ids: number[]; image: number; answer: number; type: number; question: string }> = [];
  for (let i = 0; i < imageCount; i++) {
    const s = sceneQA(split, offset + i, seed);
    images.set(s.image, i * px);
    // The language draw has its own stream, so the scenes and their questions are those of an English set.
    const pick = language === "mixed" ? new Rng(mixSeed(seed, 10 + SPLIT_CODE[split], offset + i)) : null;
    for (const q of s.questions) {
      const texts = language === "both" ? [q.question, q.questionZh] : [language === "zh" || (pick && pick.float() < 0.5) ? q.questionZh : q.question];
      for (const text of texts) {
        const { ids, unknown } = tokenize(text);
        if (unknown.length > 0 || ids.length > MAX_QUESTION_TOKENS) throw new Error(`template question "${text}" does not fit the vocabulary`);
        rows.push({ ids: padIds(ids), image: i, answer: q.answerIndex, type: QUESTION_TYPES.indexOf(q.type), question: text });
      }
    }
  }
  const n = rows.length;
  const questionIds = new Int32Array(n * MAX_QUESTION_TOKENS);
  rows.forEach((r, i) => questionIds.set(r.ids, i * MAX_QUESTION_TOKENS));
  return {
    split,
    imageCount,
    images,
    questionCount: n,
    questionIds,
    imageOf: Int32Array.from(rows, (r) => r.image),
    answers: Int32Array.from(rows, (r) => r.answer),
    types: Int32Array.from(rows, (r) => r.type),
    questions: rows.map((r) => r.question),
  };
}
