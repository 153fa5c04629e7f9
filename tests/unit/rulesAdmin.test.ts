// The admin area's form rules (app/lib/rules/servers.ts, evaluation.ts) as the page and the
// server read them, and the time zone label server times carry.
import { describe, expect, it } from "vitest";
import { parseForm } from "~/lib/forms/parse.ts";
import { SERVER_MSG, newServerSchema, parseServerIds } from "~/lib/rules/servers.ts";
import { MSG as EVAL_MSG, startSchema } from "~/lib/rules/evaluation.ts";
import { utcOffsetLabel } from "~/lib/timeZone.ts";

describe("new server form", () => {
  it("reports every field at once, in the original site's words", () => {
    expect(parseForm({ username: " ", password: "", password2: "x" }, newServerSchema)).toEqual({
      ok: false,
      errors: { username: SERVER_MSG.nameRequired, password: SERVER_MSG.passwordRequired, password2: SERVER_MSG.passwordMismatch },
    });
    expect(parseForm({ username: "n".repeat(201), password: "p", password2: "p" }, newServerSchema)).toEqual({
      ok: false,
      errors: { username: SERVER_MSG.nameTooLong },
    });
    expect(parseForm({ username: "p".repeat(1), password: "p".repeat(257), password2: "p".repeat(257) }, newServerSchema)).toMatchObject({
      ok: false,
      errors: { password: 'forms:tooLong|{"max":256}' },
    });
  });
  it("trims the name, keeps the password as typed", () => {
    expect(parseForm({ username: "  gpu-01 ", password: " pw ", password2: " pw " }, newServerSchema)).toEqual({
      ok: true,
      value: { username: "gpu-01", password: " pw ", password2: " pw " },
    });
  });
});

describe("the ids a deletion names", () => {
  it("are positive whole numbers, each once", () => {
    expect(parseServerIds(["3", "1", "3"])).toEqual([3, 1]);
    expect(parseServerIds([])).toEqual([]);
    for (const bad of [["0"], ["-1"], ["1.5"], ["1e3"], ["abc"], [" 2"], ["9999999999"]]) expect(parseServerIds(bad), bad[0]).toBeNull();
    expect(parseServerIds(Array.from({ length: 1001 }, (_, i) => String(i + 1)))).toBeNull();
  });
});

describe("evaluation run form", () => {
  it("checks suite, method, limit and JSON parameters together", () => {
    const r = parseForm({ suite: "", method: "", limit: "0", params: "[1]" }, startSchema);
    expect(r).toEqual({
      ok: false,
      errors: { suite: EVAL_MSG.suiteRequired, method: EVAL_MSG.methodRequired, limit: EVAL_MSG.limitRange, params: EVAL_MSG.paramsJson },
    });
    expect(parseForm({ suite: "metarank-local", method: "Saliency", limit: "4" }, startSchema)).toEqual({
      ok: true,
      value: { suite: "metarank-local", method: "Saliency", limit: "4", params: "" },
    });
  });
  it("refuses a control character smuggled in as a JSON escape", () => {
    expect(parseForm({ suite: "s", method: "m", limit: "1", params: '{"a":"\\u0000"}' }, startSchema)).toEqual({
      ok: false,
      errors: { params: "forms:controlCharacters" },
    });
  });
});

describe("time zone labels", () => {
  it("say the offset from UTC, a minus sign west of it", () => {
    expect(utcOffsetLabel(0)).toBe("UTC+00:00");
    expect(utcOffsetLabel(480)).toBe("UTC+08:00");
    expect(utcOffsetLabel(-330)).toBe("UTC−05:30");
    expect(utcOffsetLabel(345)).toBe("UTC+05:45");
  });
});
