// The labelling rules shared by the page and the server (app/lib/rules/labels.ts): the class
// list as typed and the page form's label fields.
import { describe, expect, it } from "vitest";
import { CLASSES_MAX, CLASS_NAME_MAX, LABELS_PER_PAGE, LABEL_MSG, classKey, parseClassList, parseLabelFields } from "../../app/lib/rules/labels.ts";

const form = (fields: [string, string][]) => {
  const fd = new FormData();
  for (const [k, v] of fields) fd.append(k, v);
  return fd;
};

describe("class list", () => {
  it("reads one class a line: trimmed, inner spaces collapsed, blank lines skipped, order kept", () => {
    expect(parseClassList(" cat \r\n\n big   bird\rdog\n")).toEqual({ ok: true, classes: ["cat", "big bird", "dog"] });
  });
  it("accepts exactly the limits and refuses one more", () => {
    const names = Array.from({ length: CLASSES_MAX }, (_, i) => String(i).padStart(CLASS_NAME_MAX, "a"));
    expect(parseClassList(names.join("\n")).ok).toBe(true);
    expect(parseClassList([...names, "b"].join("\n"))).toEqual({ ok: false, error: LABEL_MSG.tooManyClasses });
    expect(parseClassList("x".repeat(CLASS_NAME_MAX + 1))).toEqual({ ok: false, error: LABEL_MSG.classTooLong("x".repeat(CLASS_NAME_MAX + 1)) });
  });
  it("refuses duplicates that differ only in case or Unicode form, control characters and an empty list", () => {
    expect(parseClassList("Cat\ncat")).toEqual({ ok: false, error: LABEL_MSG.duplicateClass("cat") });
    expect(parseClassList("caf\u00e9\ncafe\u0301").ok).toBe(false);
    expect(classKey("ÄPFEL")).toBe(classKey("äpfel"));
    expect(parseClassList("a\nb\u0007")).toEqual({ ok: false, error: LABEL_MSG.classControl(2) });
    expect(parseClassList("a\tb")).toEqual({ ok: false, error: LABEL_MSG.classControl(1) });
    expect(parseClassList(" \n\n")).toEqual({ ok: false, error: LABEL_MSG.noClasses });
  });
  it("cuts a long name before echoing it in a message", () => {
    expect(LABEL_MSG.notAClass("y".repeat(10_000)).length).toBeLessThan(200);
  });
});

describe("page form", () => {
  it("reads label-<id> fields, an empty value clearing the label, other fields ignored", () => {
    expect(
      parseLabelFields(
        form([
          ["intent", "labels"],
          ["label-3", "cat"],
          ["label-4", ""],
          ["page", "1"],
        ]),
      ),
    ).toEqual({
      ok: true,
      entries: [
        { pictureId: 3, label: "cat" },
        { pictureId: 4, label: null },
      ],
    });
  });
  it("refuses no fields, more than a page, a repeated or malformed id and an over-long value", () => {
    expect(parseLabelFields(form([["intent", "labels"]]))).toEqual({ ok: false, error: LABEL_MSG.noLabels });
    const many = Array.from({ length: LABELS_PER_PAGE + 1 }, (_, i): [string, string] => [`label-${i + 1}`, "a"]);
    expect(parseLabelFields(form(many))).toEqual({ ok: false, error: LABEL_MSG.tooManyLabels });
    expect(
      parseLabelFields(
        form([
          ["label-3", "a"],
          ["label-3", "b"],
        ]),
      ),
    ).toEqual({ ok: false, error: LABEL_MSG.badPicture });
    expect(parseLabelFields(form([["label-0", "a"]]))).toEqual({ ok: false, error: LABEL_MSG.badPicture });
    expect(parseLabelFields(form([["label-1", "z".repeat(CLASS_NAME_MAX + 1)]])).ok).toBe(false);
  });
});
