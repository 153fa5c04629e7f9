// Forms whose rules read repeated fields or whole-form decisions through formSchema
// (app/lib/forms/parse.ts): a "list" field keeps every value as sent, the ranking edit form
// (app/lib/rules/ranking.ts), the approval decision (app/lib/rules/submission.ts) and
// POST /algorithm/getResults' model name (app/lib/rules/inspection.ts).
import { describe, expect, it } from "vitest";
import { formSchema, parseForm } from "~/lib/forms/parse.ts";
import { RANKING_INVALID, rankingEditSchema } from "~/lib/rules/ranking.ts";
import { DECISION_NOTE_MAX, MSG, decisionSchema } from "~/lib/rules/submission.ts";
import { getResultsSchema } from "~/lib/rules/inspection.ts";

const form = (pairs: [string, string][]) => {
  const fd = new FormData();
  for (const [k, v] of pairs) fd.append(k, v);
  return fd;
};

describe("formSchema list fields", () => {
  const schema = formSchema({ one: "trim", many: "list" }, () => ({}));
  it("reads every value in order, an empty one too", () => {
    expect(parseForm(form([]), schema)).toEqual({ ok: true, value: { one: "", many: [] } });
    expect(parseForm(form([["many", "1"]]), schema)).toEqual({ ok: true, value: { one: "", many: ["1"] } });
    expect(parseForm(form([["many", ""]]), schema)).toEqual({ ok: true, value: { one: "", many: [""] } });
    expect(
      parseForm(
        form([
          ["many", "2"],
          ["one", " x "],
          ["many", "1"],
          ["many", ""],
        ]),
        schema,
      ),
    ).toEqual({ ok: true, value: { one: "x", many: ["2", "1", ""] } });
  });
  it("reads a file sent under a list field as an empty value", () => {
    const fd = form([["many", "1"]]);
    fd.append("many", new Blob(["x"]), "x.txt");
    expect(parseForm(fd, schema)).toEqual({ ok: true, value: { one: "", many: ["1", ""] } });
  });
});

describe("ranking edit form", () => {
  const read = (pairs: [string, string][]) => parseForm(form(pairs), rankingEditSchema);
  const invalid = { ok: false, errors: { form: RANKING_INVALID } };
  it("needs one of the intents and a suite", () => {
    expect(
      read([
        ["intent", "drop"],
        ["suite", "s"],
      ]),
    ).toEqual(invalid);
    expect(read([["intent", "clear"]])).toEqual(invalid);
    expect(
      read([
        ["intent", "clear"],
        ["suite", "s"],
      ]),
    ).toEqual({ ok: true, value: { intent: "clear", suiteId: "s", pageIds: [], ticked: [] } });
  });
  it("select: ids among the page's, each a positive whole number, each once", () => {
    const select = (...more: [string, string][]) => read([["intent", "select"], ["suite", "s"], ...more]);
    expect(select(["page_ids", "3"], ["page_ids", "5"], ["ids", "5"], ["ids", "5"])).toEqual({
      ok: true,
      value: { intent: "select", suiteId: "s", pageIds: [3, 5], ticked: [5] },
    });
    expect(select(["page_ids", "3"])).toEqual({ ok: true, value: { intent: "select", suiteId: "s", pageIds: [3], ticked: [] } });
    expect(select(["page_ids", "3"], ["ids", "4"])).toEqual(invalid);
    expect(select(["page_ids", "3"], ["ids", ""])).toEqual(invalid);
    expect(select(["page_ids", "x"])).toEqual(invalid);
    expect(select(["page_ids", "0"])).toEqual(invalid);
  });
  it("other intents do not read the ids", () => {
    expect(
      read([
        ["intent", "hide"],
        ["suite", "s"],
        ["page_ids", "x"],
      ]).ok,
    ).toBe(true);
  });
});

describe("approval decision", () => {
  const read = (fields: Record<string, string>) => parseForm(fields, decisionSchema);
  it("an id and approve or reject, else only that it is not a decision", () => {
    const notDecisions: Record<string, string>[] = [
      { id: "0", decision: "approve" },
      { id: "x", decision: "reject" },
      { id: "2", decision: "maybe", note: "x".repeat(2000) },
      { decision: "approve" },
    ];
    for (const f of notDecisions) expect(read(f)).toEqual({ ok: false, errors: { form: MSG.unknownDecision } });
  });
  it("a note only with a rejection, bounded, line breaks counted once", () => {
    expect(read({ id: "2", decision: "approve", note: " nice " })).toEqual({ ok: false, errors: { note: MSG.noteOnlyOnReject } });
    expect(read({ id: "2", decision: "approve", note: "  " })).toEqual({ ok: true, value: { id: 2, decision: "approve", note: "" } });
    expect(read({ id: "2", decision: "reject", note: " a\r\nb " })).toEqual({ ok: true, value: { id: 2, decision: "reject", note: "a\nb" } });
    expect(read({ id: "2", decision: "reject", note: "\r\n".repeat(DECISION_NOTE_MAX) + "x" }).ok).toBe(true);
    const tooLong = read({ id: "2", decision: "reject", note: "x".repeat(DECISION_NOTE_MAX + 1) });
    expect(tooLong.ok).toBe(false);
    expect(Object.keys(tooLong.ok ? {} : tooLong.errors)).toEqual(["note"]);
  });
});

describe("getResults' model name", () => {
  const read = (modelName: string) => parseForm({ modelName }, getResultsSchema);
  it("required, trimmed, at most 100 characters", () => {
    expect(read(" ridge-frangi-v1 ")).toEqual({ ok: true, value: { modelName: "ridge-frangi-v1" } });
    expect(read("  ")).toEqual({ ok: false, errors: { modelName: "modelName is required (at most 100 characters)." } });
    expect(read("x".repeat(100)).ok).toBe(true);
    expect(read("x".repeat(101)).ok).toBe(false);
  });
});
