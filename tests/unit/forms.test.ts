// The shared form rules: text fields' maxima and control characters, message refs and their
// translation in both languages, and parsing through conform as the server does it.
import i18next from "i18next";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { i18nConfig, resources } from "~/i18n/config.ts";
import { decodeMessage, messageRef, translateMessage } from "~/lib/forms/messages.ts";
import { parseForm } from "~/lib/forms/parse.ts";
import { checkText, hasControlCharacters, textField } from "~/lib/forms/text.ts";

async function tFor(lng: "en" | "zh") {
  const i = i18next.createInstance();
  await i.init({ ...i18nConfig, lng, resources });
  return i.t;
}

describe("message refs", () => {
  it("encode a key with values and decode it back", () => {
    const ref = messageRef("forms:tooLong", { max: 200 });
    expect(ref).toBe('forms:tooLong|{"max":200}');
    expect(decodeMessage(ref)).toEqual({ key: "forms:tooLong", values: { max: 200 } });
    expect(decodeMessage("forms:required")).toEqual({ key: "forms:required" });
  });
  it("leave plain texts alone", () => {
    expect(decodeMessage("Please enter your Username.")).toBeNull();
    expect(decodeMessage("两次输入密码不一致!")).toBeNull();
    expect(decodeMessage("forms:tooLong|not json")).toBeNull();
  });
  it("translate in both languages, with values", async () => {
    const ref = messageRef("forms:tooLong", { max: 50 });
    expect(translateMessage(await tFor("en"), ref)).toBe("At most 50 characters, please.");
    expect(translateMessage(await tFor("zh"), ref)).toBe("最多 50 个字符。");
    expect(translateMessage(await tFor("zh"), "a text as it is")).toBe("a text as it is");
    // An unknown key shows the ref rather than nothing.
    expect(translateMessage(await tFor("en"), "forms:noSuchKey")).toBe("forms:noSuchKey");
  });
});

describe("text fields", () => {
  it("refuse control characters, NUL included; multi-line keeps tabs and line breaks", () => {
    expect(hasControlCharacters("a\u0000b")).toBe(true);
    expect(hasControlCharacters("a\u007fb")).toBe(true);
    expect(hasControlCharacters("a\u0085b")).toBe(true);
    expect(hasControlCharacters("line\nline")).toBe(true);
    expect(hasControlCharacters("line\r\nline\tcell", true)).toBe(false);
    expect(hasControlCharacters("nul\u0000", true)).toBe(true);
    expect(hasControlCharacters("中文 emoji 👍🏽 and ZWJ 👩\u200d🔬", true)).toBe(false);
  });
  it("bound the length and say the maximum", () => {
    expect(checkText("x".repeat(10), { max: 10 })).toBeUndefined();
    expect(checkText("x".repeat(11), { max: 10 })).toBe(messageRef("forms:tooLong", { max: 10 }));
    expect(checkText("a\u0000", { max: 10 })).toBe("forms:controlCharacters");
  });
  it("count a multi-line field's line break once, as the browser's maxLength does (forms send CR LF)", () => {
    // Ten lines of 99 characters and one more: 1,000 in the box, 1,009 as sent.
    const sent = Array.from({ length: 10 }, () => "x".repeat(99)).join("\r\n") + "x";
    expect(checkText(sent, { max: 1000, multiline: true })).toBeUndefined();
    expect(checkText(sent + "x", { max: 1000, multiline: true })).toBe(messageRef("forms:tooLong", { max: 1000 }));
    expect(textField({ max: 10, multiline: true }).parse("a\r\nb\rc")).toBe("a\nb\nc");
  });
  it("required fields give their own message; optional ones read as empty", () => {
    const schema = z.object({
      name: textField({ max: 20, required: "forms:required" }),
      note: textField({ max: 100, multiline: true }),
    });
    expect(parseForm({ name: "", note: "" }, schema)).toEqual({ ok: false, errors: { name: "forms:required" } });
    expect(parseForm({ name: "  ada  " }, schema)).toEqual({ ok: true, value: { name: "ada", note: "" } });
    expect(parseForm({ name: "   " }, schema)).toEqual({ ok: false, errors: { name: "forms:required" } });
    const fd = new FormData();
    fd.append("name", "ok");
    fd.append("note", "x".repeat(101));
    expect(parseForm(fd, schema)).toEqual({ ok: false, errors: { note: messageRef("forms:tooLong", { max: 100 }) } });
  });
});
