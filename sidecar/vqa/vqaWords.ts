// The words of the question-answer scenes (scenesQA.ts, docs/vqa.md "Words"): colours, shapes,
// numbers and answers, their Chinese names, the question vocabulary, the synonyms a person may use,
// and the tokenizer that turns an English or Chinese question into vocabulary ids.

export const VQA_COLORS = ["red", "green", "blue", "yellow"] as const;
export const VQA_SHAPES = ["circle", "square", "triangle"] as const;
/** Counts are answered with number words (a count is at most four: a scene has 2–4 objects). */
export const VQA_NUMBERS = ["zero", "one", "two", "three", "four"] as const;
export type VqaColor = (typeof VQA_COLORS)[number];
export type VqaShape = (typeof VQA_SHAPES)[number];

/** The fixed answer set: the model's output classes, in this order. */
export const VQA_ANSWERS: readonly string[] = [...VQA_COLORS, ...VQA_SHAPES, ...VQA_NUMBERS, "yes", "no"];

/** Question types (the ids the per-type accuracies are reported under). */
export const QUESTION_TYPES = ["colour", "shape", "count", "exist", "position"] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number];

/** Chinese names of the colours, shapes and relations, in the order of their English lists. */
export const VQA_COLORS_ZH: Record<VqaColor, string> = { red: "红色", green: "绿色", blue: "蓝色", yellow: "黄色" };
export const VQA_SHAPES_ZH: Record<VqaShape, string> = { circle: "圆形", square: "正方形", triangle: "三角形" };
export const RELATIONS_ZH: Record<string, string> = { "left of": "左边", "right of": "右边", above: "上方", below: "下方" };

/**
 * The Chinese words the Chinese templates use (docs/vqa.md "Chinese"): the same question families
 * as the English ones, written as a Chinese speaker asks them ("圆形是什么颜色？", "有几个红色的物体？",
 * "红色圆形在蓝色正方形的左边吗？"). Chinese is written without spaces, so `tokenize` segments it by the longest
 * match against these words and the synonyms of VQA_SYNONYMS_ZH.
 */
export const VQA_WORDS_ZH: readonly string[] = [
  "什么",
  "颜色",
  "形状",
  "是",
  "的",
  "物体",
  "有",
  "几个",
  "吗",
  "在",
  ...VQA_COLORS.map((c) => VQA_COLORS_ZH[c]),
  ...VQA_SHAPES.map((s) => VQA_SHAPES_ZH[s]),
  ...Object.values(RELATIONS_ZH),
];

/**
 * The question vocabulary: index 0 is the padding token, 1 stands for any word outside
 * the vocabulary; the rest are exactly the words the question templates use, English first, then
 * Chinese (both languages are trained together, train.ts).
 */
export const VQA_VOCABULARY: readonly string[] = [
  "<pad>",
  "<unk>",
  "what",
  "is",
  "the",
  "of",
  "color",
  "shape",
  "object",
  "objects",
  "how",
  "many",
  "are",
  "there",
  "a",
  ...VQA_COLORS,
  ...VQA_SHAPES,
  ...VQA_SHAPES.map((s) => `${s}s`),
  "left",
  "right",
  "above",
  "below",
  ...VQA_WORDS_ZH,
];
export const PAD_ID = 0;
export const UNK_ID = 1;
/** Questions are padded (or cut) to this many tokens; the longest template has 9. */
export const MAX_QUESTION_TOKENS = 12;

const WORD_ID = new Map(VQA_VOCABULARY.map((w, i) => [w, i]));
const ANSWER_ID = new Map(VQA_ANSWERS.map((a, i) => [a, i]));

/**
 * English words and phrases a person may use for the model's words (docs/vqa.md "Words"): British
 * spellings, common synonyms and paraphrases. Each rule replaces a run of words by the model's
 * words; the longest rule starting at a word wins; `[]` drops the words (fillers that the templates
 * do not have, such as "in the picture"). "gray"/"grey" are spelling variants of each other, but
 * the scenes have no grey object, so neither is a word of the model.
 */
export const VQA_SYNONYMS_EN: ReadonlyArray<readonly [string, string]> = [
  ["colour", "color"],
  ["hue", "color"],
  ["grey", "gray"],
  ["whats", "what is"],
  ["an", "a"],
  ["is there any", "is there a"],
  ["are there any", "is there a"],
  ["the number of", "how many"],
  ["thing", "object"],
  ["things", "objects"],
  ["item", "object"],
  ["items", "objects"],
  ["ball", "circle"],
  ["balls", "circles"],
  ["disc", "circle"],
  ["discs", "circles"],
  ["disk", "circle"],
  ["disks", "circles"],
  ["number of", "how many"],
  ["what is the number of", "how many"],
  ["count the", "how many"],
  ["to the left of", "left of"],
  ["on the left of", "left of"],
  ["to the right of", "right of"],
  ["on the right of", "right of"],
  ["on top of", "above"],
  ["over", "above"],
  ["higher than", "above"],
  ["under", "below"],
  ["beneath", "below"],
  ["underneath", "below"],
  ["lower than", "below"],
  ["in the picture", ""],
  ["in the image", ""],
  ["in the scene", ""],
  ["in the photo", ""],
  ["please", ""],
];

/**
 * The same for Chinese, also the segmentation table's further entries: a variant on the left is
 * read as the model's word on the right ("" drops a filler such as 图中, "in the picture").
 */
export const VQA_SYNONYMS_ZH: ReadonlyArray<readonly [string, string]> = [
  ["多少个", "几个"],
  ["多少", "几个"],
  ["几", "几个"],
  ["哪种颜色", "什么 颜色"],
  ["什么色", "什么 颜色"],
  ["啥", "什么"],
  ["东西", "物体"],
  ["物品", "物体"],
  ["图形", "物体"],
  ["红", "红色"],
  ["绿", "绿色"],
  ["蓝", "蓝色"],
  ["黄", "黄色"],
  ["圆", "圆形"],
  ["圆圈", "圆形"],
  ["方形", "正方形"],
  ["方块", "正方形"],
  ["三角", "三角形"],
  ["左侧", "左边"],
  ["左面", "左边"],
  ["右侧", "右边"],
  ["右面", "右边"],
  ["上面", "上方"],
  ["上边", "上方"],
  ["下面", "下方"],
  ["下边", "下方"],
  ["图中", ""],
  ["图里", ""],
  ["图片中", ""],
  ["图片里", ""],
  ["画面中", ""],
  ["请问", ""],
  ["个", ""],
  ["呢", "吗"],
];

export interface Tokenized {
  /** Vocabulary index of each token (UNK_ID for a word outside the vocabulary). */
  ids: number[];
  /** The model's words (synonyms already replaced). */
  tokens: string[];
  /** The words outside the vocabulary, as written, in order of appearance, each once. */
  unknown: string[];
  /** "zh" when the question has Chinese characters, else "en". */
  language: "en" | "zh";
}

const EN_RULES = VQA_SYNONYMS_EN.map(([from, to]) => ({ from: from.split(" "), to: to ? to.split(" ") : [] })).sort((a, b) => b.from.length - a.from.length);
/** Chinese segmentation table: every model word reads as itself, every variant as its model words. */
const ZH_TABLE = new Map<string, string[]>([
  ...VQA_WORDS_ZH.map((w) => [w, [w]] as [string, string[]]),
  ...VQA_SYNONYMS_ZH.map(([from, to]) => [from, to ? to.split(" ") : []] as [string, string[]]),
]);
const ZH_LONGEST = Math.max(...[...ZH_TABLE.keys()].map((k) => k.length));
const HAN = /\p{Script=Han}/u;
const SINGULAR = new Map<string, string>([...VQA_SHAPES.map((s) => [`${s}s`, s] as [string, string]), ["objects", "object"]]);

/** English words with the synonym rules applied; `unknownAs` keeps the word as written for reporting. */
function normaliseEnglish(words: string[]): Array<{ token: string; written: string }> {
  const out: Array<{ token: string; written: string }> = [];
  for (let i = 0; i < words.length;) {
    const rule = EN_RULES.find((r) => r.from.every((w, k) => words[i + k] === w));
    if (rule) {
      const written = words.slice(i, i + rule.from.length).join(" ");
      for (const t of rule.to) out.push({ token: t, written });
      i += rule.from.length;
    } else out.push({ token: words[i], written: words[i++] });
  }
  // "what is how many …" (from "what is the number of …") is "how many …".
  if (out[0]?.token === "what" && out[1]?.token === "is" && out[2]?.token === "how") out.splice(0, 2);
  // "how many circles" / "how many circles are" (after a dropped "in the picture") ask what the
  // template "how many circles are there" asks.
  const tokens = out.map((o) => o.token);
  if (tokens[0] === "how" && tokens[1] === "many" && !tokens.includes("there")) {
    if (tokens.at(-1) !== "are") out.push({ token: "are", written: "" });
    out.push({ token: "there", written: "" });
  }
  // "is there a circles" (from "are there any circles") asks the template's "is there a circle".
  if (tokens[0] === "is" && tokens[1] === "there" && tokens[2] === "a") for (const o of out) o.token = SINGULAR.get(o.token) ?? o.token;
  return out;
}

/** Chinese text segmented by the longest match in the table; an unmatched run of characters is one unknown word. */
function segmentChinese(text: string): Array<{ token: string; written: string }> {
  const out: Array<{ token: string; written: string }> = [];
  let unmatched = "";
  const flush = () => {
    if (unmatched) out.push({ token: unmatched, written: unmatched });
    unmatched = "";
  };
  for (let i = 0; i < text.length;) {
    let hit = "";
    for (let n = Math.min(ZH_LONGEST, text.length - i); n > 0 && !hit; n--) if (ZH_TABLE.has(text.slice(i, i + n))) hit = text.slice(i, i + n);
    if (!hit) {
      unmatched += text[i++];
      continue;
    }
    flush();
    for (const t of ZH_TABLE.get(hit)!) out.push({ token: t, written: hit });
    i += hit.length;
  }
  flush();
  return out;
}

const ZH_COLOURS = new Set(Object.values(VQA_COLORS_ZH));
const ZH_SHAPES = new Set(Object.values(VQA_SHAPES_ZH));

/**
 * The templates write a colour and a shape without 的 (红色圆形) and a colour and 物体 with it
 * (红色的物体); a person writes either, so both read as the template's form.
 */
function tidyChinese(read: Array<{ token: string; written: string }>): Array<{ token: string; written: string }> {
  const out: Array<{ token: string; written: string }> = [];
  for (let i = 0; i < read.length; i++) {
    const prev = out.at(-1)?.token ?? "";
    const r = read[i];
    if (r.token === "的" && ZH_COLOURS.has(prev) && ZH_SHAPES.has(read[i + 1]?.token ?? "")) continue;
    if (r.token === "物体" && ZH_COLOURS.has(prev)) out.push({ token: "的", written: "" });
    out.push(r);
  }
  return out;
}

/**
 * Lower-cases, strips `?` `,` `.` (and the Chinese ？，。), splits on whitespace and underscores;
 * English words pass through VQA_SYNONYMS_EN, runs of Chinese characters are segmented with the
 * Chinese table. Unknown words are reported as written.
 */
export function tokenize(question: string): Tokenized {
  const pieces = question
    .toLowerCase()
    .replace(/\bwhat['’]s\b/g, "what is")
    .replace(/[?,.!？，。！、]/g, " ")
    .replace(/(\p{Script=Han}+)/gu, " $1 ")
    .split(/[\s_]+/)
    .filter((t) => t.length > 0);
  const language = HAN.test(question) ? "zh" : "en";
  const read: Array<{ token: string; written: string }> = [];
  let english: string[] = [];
  const flushEnglish = () => {
    read.push(...normaliseEnglish(english));
    english = [];
  };
  for (const p of pieces) {
    if (HAN.test(p)) {
      flushEnglish();
      read.push(...tidyChinese(segmentChinese(p)));
    } else english.push(p);
  }
  flushEnglish();
  const tokens = read.map((r) => r.token);
  const ids = tokens.map((t) => WORD_ID.get(t) ?? UNK_ID);
  const unknown = [...new Set(read.filter((r) => !WORD_ID.has(r.token)).map((r) => r.written))];
  return { ids, tokens, unknown, language };
}

/** The ids padded with PAD_ID (or cut) to MAX_QUESTION_TOKENS. */
export function padIds(ids: readonly number[], length = MAX_QUESTION_TOKENS): number[] {
  const out = ids.slice(0, length);
  while (out.length < length) out.push(PAD_ID);
  return out;
}

export function answerIndex(answer: string): number {
  const i = ANSWER_ID.get(answer);
  if (i === undefined) throw new RangeError(`"${answer}" is not one of the answers (${VQA_ANSWERS.join(", ")})`);
  return i;
}
