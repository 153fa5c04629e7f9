// The question-answer scenes (sidecar/vqa/scenesQA.ts): deterministic, train and test never
// share an image, every question's answer follows from the object list (checked on a scene
// built by hand), answers balanced per type, and the tokenizer reports words it does not know.
import { describe, expect, it } from "vitest";
import { VQA_IMAGE_SIZE, candidateQuestions, generateVqaSet, sceneQA, type SceneObject } from "../../sidecar/vqa/scenesQA.ts";
import { MAX_QUESTION_TOKENS, QUESTION_TYPES, UNK_ID, VQA_ANSWERS, VQA_VOCABULARY, tokenize } from "../../sidecar/vqa/vqaWords.ts";

const obj = (color: SceneObject["color"], shape: SceneObject["shape"], row: number, col: number): SceneObject => ({
  color,
  shape,
  row,
  col,
  cx: (col + 0.5) * (VQA_IMAGE_SIZE / 3),
  cy: (row + 0.5) * (VQA_IMAGE_SIZE / 3),
  radius: 4,
});

const hash = (px: Float32Array) => Buffer.from(px.buffer, px.byteOffset, px.byteLength).toString("base64");

describe("question-answer scenes", () => {
  it("are identical on every generation and differ between indices, splits and seeds", () => {
    const a = sceneQA("train", 7);
    const b = sceneQA("train", 7);
    expect(hash(a.image)).toBe(hash(b.image));
    expect(a.questions).toEqual(b.questions);
    expect(a.objects).toEqual(b.objects);
    expect(hash(sceneQA("train", 8).image)).not.toBe(hash(a.image));
    expect(hash(sceneQA("test", 7).image)).not.toBe(hash(a.image));
    expect(hash(sceneQA("train", 7, 1).image)).not.toBe(hash(a.image));
    expect(a.image.length).toBe(VQA_IMAGE_SIZE * VQA_IMAGE_SIZE * 3);
    expect(a.image.every((v) => v >= 0 && v <= 1)).toBe(true);
  });

  it("keep the train and test splits apart (no shared image)", () => {
    const train = new Set(Array.from({ length: 400 }, (_, i) => hash(sceneQA("train", i).image)));
    expect(train.size).toBe(400);
    for (let i = 0; i < 400; i++) expect(train.has(hash(sceneQA("test", i).image))).toBe(false);
  });

  it("place 2–4 objects on distinct grid cells and ask questions whose answers follow from them", () => {
    for (let i = 0; i < 200; i++) {
      const s = sceneQA("test", i);
      expect(s.objects.length).toBeGreaterThanOrEqual(2);
      expect(s.objects.length).toBeLessThanOrEqual(4);
      expect(new Set(s.objects.map((o) => o.row * 3 + o.col)).size).toBe(s.objects.length);
      for (const q of s.questions) {
        // Every asked question is one of the scene's candidates, with the candidate's answer.
        const c = candidateQuestions(s.objects, q.type).find((c) => c.question === q.question);
        expect(c?.answer, q.question).toBe(q.answer);
        expect(VQA_ANSWERS[q.answerIndex]).toBe(q.answer);
        const t = tokenize(q.question);
        expect(t.unknown).toEqual([]);
        expect(t.ids.length).toBeLessThanOrEqual(MAX_QUESTION_TOKENS);
        // The Chinese rendering of the same question: its own words, all in the vocabulary.
        expect(c?.questionZh).toBe(q.questionZh);
        const z = tokenize(q.questionZh);
        expect(z.unknown, q.questionZh).toEqual([]);
        expect(z.language).toBe("zh");
        expect(z.ids.length).toBeLessThanOrEqual(MAX_QUESTION_TOKENS);
      }
      expect(new Set(s.questions.map((q) => q.question)).size).toBe(s.questions.length);
    }
  });

  it("answer a hand-built scene correctly", () => {
    // Top row: red circle (left), blue square (right); middle: green triangle (centre);
    // bottom-left: a second red circle.
    const objects = [obj("red", "circle", 0, 0), obj("blue", "square", 0, 2), obj("green", "triangle", 1, 1), obj("red", "circle", 2, 0)];
    const answer = (type: (typeof QUESTION_TYPES)[number], question: string) => candidateQuestions(objects, type).find((c) => c.question === question)?.answer;
    expect(answer("colour", "what color is the square?")).toBe("blue");
    expect(answer("colour", "what is the color of the triangle?")).toBe("green");
    expect(answer("colour", "what color is the circle?")).toBeUndefined(); // two circles: ambiguous, never asked
    expect(answer("shape", "what shape is the blue object?")).toBe("square");
    expect(answer("shape", "what shape is the red object?")).toBeUndefined(); // two red objects
    expect(answer("count", "how many objects are there?")).toBe("four");
    expect(answer("count", "how many red objects are there?")).toBe("two");
    expect(answer("count", "how many circles are there?")).toBe("two");
    expect(answer("count", "how many yellow objects are there?")).toBe("zero");
    expect(answer("count", "how many green triangles are there?")).toBe("one");
    expect(answer("exist", "is there a green triangle?")).toBe("yes");
    expect(answer("exist", "is there a green square?")).toBe("no");
    expect(answer("exist", "is there a yellow object?")).toBe("no");
    expect(answer("exist", "is there a square?")).toBe("yes");
    expect(answer("position", "is the blue square right of the green triangle?")).toBe("yes");
    expect(answer("position", "is the blue square left of the green triangle?")).toBe("no");
    expect(answer("position", "is the blue square above the green triangle?")).toBe("yes");
    expect(answer("position", "is the green triangle below the blue square?")).toBe("yes");
    expect(answer("position", "is the green triangle above the blue square?")).toBe("no");
    // The red circles are not unique, so no position question names them.
    expect(candidateQuestions(objects, "position").some((c) => c.question.includes("red circle"))).toBe(false);
  });

  it("balance the answers of every question type", () => {
    const set = generateVqaSet("train", 600);
    expect(set.questionCount).toBeGreaterThan(600 * 7);
    const share = (type: string, answer: string) => {
      const t = QUESTION_TYPES.indexOf(type as (typeof QUESTION_TYPES)[number]);
      let n = 0,
        k = 0;
      for (let i = 0; i < set.questionCount; i++)
        if (set.types[i] === t) {
          n++;
          if (VQA_ANSWERS[set.answers[i]] === answer) k++;
        }
      return k / n;
    };
    for (const type of ["exist", "position"]) expect(Math.abs(share(type, "yes") - 0.5)).toBeLessThan(0.05);
    for (const c of ["red", "green", "blue", "yellow"]) expect(share("colour", c)).toBeGreaterThan(0.18);
    for (const s of ["circle", "square", "triangle"]) expect(share("shape", s)).toBeGreaterThan(0.25);
    for (const n of ["zero", "one", "two"]) expect(share("count", n)).toBeGreaterThan(0.15);
    for (const n of ["three", "four"]) expect(share("count", n)).toBeGreaterThan(0.04);
  });

  it("do not let a yes/no question's wording give its answer away (each form about 50/50)", () => {
    // Forms: "is there a <colour> <shape>", "is there a <shape>", "is there a <colour> object",
    // and the four relations. Without per-form balancing "is there a <shape>" was mostly yes.
    const forms: Array<[RegExp, string]> = [
      [/^is there a (red|green|blue|yellow) (circle|square|triangle)\?$/, "exist colour+shape"],
      [/^is there a (circle|square|triangle)\?$/, "exist shape"],
      [/^is there a (red|green|blue|yellow) object\?$/, "exist colour"],
      [/ left of /, "left of"],
      [/ right of /, "right of"],
      [/ above /, "above"],
      [/ below /, "below"],
    ];
    const tally = new Map(forms.map(([, name]) => [name, { yes: 0, n: 0 }]));
    for (let i = 0; i < 1500; i++)
      for (const q of sceneQA("train", i).questions) {
        if (q.type !== "exist" && q.type !== "position") continue;
        const form = forms.find(([re]) => re.test(q.question));
        expect(form, q.question).toBeDefined();
        const t = tally.get(form![1])!;
        t.n++;
        if (q.answer === "yes") t.yes++;
      }
    for (const [name, t] of tally) {
      expect(t.n, name).toBeGreaterThan(300);
      expect(t.yes / t.n, name).toBeGreaterThan(0.38);
      expect(t.yes / t.n, name).toBeLessThan(0.62);
    }
  });
});

describe("tokenize", () => {
  it("lower-cases, strips ? , . and splits on spaces and underscores", () => {
    const t = tokenize("Is_the RED circle,  left of the blue square?");
    expect(t.tokens).toEqual(["is", "the", "red", "circle", "left", "of", "the", "blue", "square"]);
    expect(t.ids.map((i) => VQA_VOCABULARY[i])).toEqual(t.tokens);
    expect(t.unknown).toEqual([]);
  });

  it("reports words outside the vocabulary (each once, as written) and maps them to <unk>", () => {
    const t = tokenize("What colour is the big big circle.");
    expect(t.unknown).toEqual(["big"]);
    expect(t.ids.filter((i) => i === UNK_ID).length).toBe(2);
    // "grey" is read as "gray", which no scene has: the person is told the word they wrote.
    expect(tokenize("is there a grey circle?").unknown).toEqual(["grey"]);
    expect(tokenize("图中有大象吗？").unknown).toEqual(["大象"]);
    expect(VQA_VOCABULARY[0]).toBe("<pad>");
    expect(VQA_VOCABULARY[1]).toBe("<unk>");
    expect(tokenize("   ").tokens).toEqual([]);
  });
});

describe("tokenize: spellings, synonyms and Chinese (docs/vqa.md)", () => {
  const words = (q: string) => tokenize(q).tokens.join(" ");
  it("reads British spellings and common synonyms as the model's words", () => {
    expect(words("What colour is the circle?")).toBe("what color is the circle");
    expect(words("what's the colour of the ball?")).toBe("what is the color of the circle");
    expect(words("What is the number of red things in the picture?")).toBe("how many red objects are there");
    expect(words("number of discs")).toBe("how many circles are there");
    expect(words("count the squares")).toBe("how many squares are there");
    expect(words("how many triangles are in the image?")).toBe("how many triangles are there");
    expect(words("are there any blue squares?")).toBe("is there a blue square");
    expect(words("is there an item?")).toBe("is there a object");
    expect(words("is the red circle to the left of the blue square?")).toBe("is the red circle left of the blue square");
    expect(words("is the green triangle on top of the yellow square")).toBe("is the green triangle above the yellow square");
    expect(words("is the red circle underneath the blue square")).toBe("is the red circle below the blue square");
    for (const q of ["What colour is the circle?", "What is the number of red things in the picture?", "are there any blue squares?"])
      expect(tokenize(q).unknown, q).toEqual([]);
  });

  it("segments Chinese questions into the vocabulary's words, with their variants", () => {
    expect(words("圆形是什么颜色？")).toBe("圆形 是 什么 颜色");
    expect(words("红色的物体是什么形状？")).toBe("红色 的 物体 是 什么 形状");
    expect(words("图中有多少个红色的东西？")).toBe("有 几个 红色 的 物体");
    expect(words("有几个三角形")).toBe("有 几个 三角形");
    expect(words("有红色的圆形吗")).toBe("有 红色 圆形 吗");
    expect(words("有蓝色物体吗")).toBe("有 蓝色 的 物体 吗");
    expect(words("红圆在蓝方块的左侧吗？")).toBe("红色 圆形 在 蓝色 正方形 的 左边 吗");
    expect(words("黄色三角形在绿色圆形的上面吗")).toBe("黄色 三角形 在 绿色 圆形 的 上方 吗");
    expect(tokenize("圆形是什么颜色？").language).toBe("zh");
    expect(tokenize("what color is the circle").language).toBe("en");
  });

  it("has every Chinese template word in the vocabulary, after the English words", () => {
    const zh = VQA_VOCABULARY.filter((w) => /\p{Script=Han}/u.test(w));
    expect(zh.length).toBeGreaterThan(15);
    expect(VQA_VOCABULARY.indexOf(zh[0])).toBeGreaterThan(VQA_VOCABULARY.indexOf("below"));
    const set = generateVqaSet("test", 30, undefined, 0, "zh");
    expect(set.questions.every((q) => /\p{Script=Han}/u.test(q))).toBe(true);
    // The same images and answers as the English set: only the wording differs.
    const en = generateVqaSet("test", 30);
    expect(Array.from(set.answers)).toEqual(Array.from(en.answers));
    expect(hash(set.images)).toBe(hash(en.images));
    const mixed = generateVqaSet("train", 30, undefined, 0, "mixed");
    const zhShare = mixed.questions.filter((q) => /\p{Script=Han}/u.test(q)).length / mixed.questionCount;
    expect(zhShare).toBeGreaterThan(0.3);
    expect(zhShare).toBeLessThan(0.7);
  });
});
