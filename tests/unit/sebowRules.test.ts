// The SeBoW demos' start form (app/lib/rules/sebow.ts): one message at a time in the page's order,
// model, algorithm, then image, with the values compared exactly as sent.
import { describe, expect, it } from "vitest";
import { SEBOW_MSG, sebowStartSchema } from "../../app/lib/rules/sebow.ts";
import { parseForm } from "../../app/lib/forms/parse.ts";

describe("sebowStartSchema", () => {
  const read = (fields: Record<string, string>) => parseForm(fields, sebowStartSchema);
  it("says the model message first, then the algorithm's, then the image's", () => {
    expect(read({})).toEqual({ ok: false, errors: { model: SEBOW_MSG.chooseModel } });
    expect(read({ model: "ResNet", algorithm: "", sample: "" })).toEqual({ ok: false, errors: { model: SEBOW_MSG.chooseModel } });
    expect(read({ model: "SearchSpaceModel", algorithm: "IG", sample: "" })).toEqual({ ok: false, errors: { algorithm: SEBOW_MSG.chooseAlgorithm } });
    expect(read({ model: "NeuralDecisionTree", algorithm: "SPI", sample: "train:3" })).toEqual({ ok: false, errors: { image: SEBOW_MSG.chooseImage } });
    expect(read({ model: "NeuralDecisionTree", algorithm: "DI", sample: "test:12" })).toEqual({
      ok: true,
      value: { model: "NeuralDecisionTree", algorithm: "DI", sample: "test:12" },
    });
  });
  it("compares the values as sent", () => {
    expect(read({ model: " SearchSpaceModel", algorithm: "DI", sample: "test:1" }).ok).toBe(false);
    expect(read({ model: "SearchSpaceModel", algorithm: "DI", sample: "test:12345678" }).ok).toBe(false);
  });
});
