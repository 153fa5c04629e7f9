// Every key of every namespace exists in both languages, with a non-empty text, and the
// interpolation variables and markup tags of a text are the same in both.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const LOCALES = path.resolve(import.meta.dirname, "../../app/locales");

function flatten(obj: Record<string, unknown>, prefix = ""): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(obj)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (v && typeof v === "object") for (const [kk, vv] of flatten(v as Record<string, unknown>, key)) out.set(kk, vv);
    else out.set(key, String(v));
  }
  return out;
}
const read = (lng: string, ns: string) => flatten(JSON.parse(fs.readFileSync(path.join(LOCALES, lng, `${ns}.json`), "utf8")));
const placeholders = (s: string) => [...s.matchAll(/\{\{\s*(\w+)\s*\}\}|<\/?(\w+)\s*\/?>/g)].map((m) => m[1] ?? `<${m[2]}>`).sort();

describe("translations", () => {
  const namespaces = fs.readdirSync(path.join(LOCALES, "en")).map((f) => f.replace(/\.json$/, ""));
  it("both languages have the same namespaces", () => {
    expect(
      fs
        .readdirSync(path.join(LOCALES, "zh"))
        .map((f) => f.replace(/\.json$/, ""))
        .sort(),
    ).toEqual([...namespaces].sort());
  });
  for (const ns of namespaces) {
    it(`${ns}: same keys, no empty text, same variables and tags`, () => {
      const en = read("en", ns);
      const zh = read("zh", ns);
      expect([...zh.keys()].sort()).toEqual([...en.keys()].sort());
      for (const [key, text] of en) {
        expect(text.trim(), `en ${ns}:${key}`).not.toBe("");
        expect(zh.get(key)!.trim(), `zh ${ns}:${key}`).not.toBe("");
        expect(placeholders(zh.get(key)!), `${ns}:${key}`).toEqual(placeholders(text));
      }
    });
  }
});

// Every key the interface asks for exists in both languages. The texts above are checked
// against each other; this scans app/ for the keys the code names: literal `t("…")` calls
// (ternaries of literals included), `i18nKey="…"` of <Trans>, message refs ("ns:key" string
// literals, app/lib/forms/messages.ts), the menu's keys (common namespace) and the static
// prefix of template keys (`t(\`state.${s}\`)` needs some "state.*"). A key without a
// namespace is looked up in the namespace of the nearest useTranslation/getFixedT above it
// in the same file, else the route's handle.i18n, else "common" (the default namespace).
const APP = path.resolve(import.meta.dirname, "../../app");
const NAMESPACES = fs.readdirSync(path.join(LOCALES, "en")).map((f) => f.replace(/\.json$/, ""));

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === "locales" ? [] : sources(p);
    return /\.(ts|tsx)$/.test(e.name) ? [p] : [];
  });
}
const lineOf = (src: string, index: number) => src.slice(0, index).split("\n").length;

interface KeyUse {
  ns: string;
  key: string;
  /** true when only some key below `key.` has to exist (template literal prefix) */
  prefix?: boolean;
  where: string;
}

/** The keys one source file names, with the namespace each is looked up in. */
export function keysUsed(file: string, src: string): KeyUse[] {
  const rel = path.relative(APP, file);
  const decls: { at: number; ns: string }[] = [];
  // only the declarations that bind `t` (not `const board = useTranslation("board").t`)
  for (const m of src.matchAll(
    /(?:\{[^{}]*\bt\b[^{}]*\}|\bt)\s*=\s*(?:await\s+)?(?:[\w.]+\.)?(?:useTranslation\(\s*(?:\[\s*)?(?:"(\w+)")?|getFixedT\(\s*[\w.]+\s*,\s*(?:\[\s*)?"(\w+)")/g,
  ))
    decls.push({ at: m.index, ns: m[1] ?? m[2] ?? "common" });
  const handle = /handle\s*=\s*\{\s*i18n:\s*(?:\[\s*)?"(\w+)"/.exec(src)?.[1];
  const nsAt = (at: number) => decls.filter((d) => d.at < at).at(-1)?.ns ?? handle ?? "common";
  const uses: KeyUse[] = [];
  const add = (raw: string, at: number, prefix = false) => {
    const cut = raw.indexOf(":");
    const where = `${rel}:${lineOf(src, at)}`;
    if (cut > 0) uses.push({ ns: raw.slice(0, cut), key: raw.slice(cut + 1), prefix, where });
    else uses.push({ ns: nsAt(at), key: raw, prefix, where });
  };
  // t("key"), t("key", …), t(cond ? "a" : "b")
  for (const m of src.matchAll(/(?<![\w.$])t\(\s*"([^"]+)"/g)) add(m[1], m.index);
  for (const m of src.matchAll(/(?<![\w.$])t\(\s*[^"(),`]+\?\s*"([^"]+)"\s*:\s*"([^"]+)"/g)) {
    add(m[1], m.index);
    add(m[2], m.index);
  }
  for (const m of src.matchAll(/(?<![\w.$])t\(\s*`([\w.]+)\.\$\{/g)) add(m[1], m.index, true);
  for (const m of src.matchAll(/i18nKey=(?:"([^"]+)"|\{"([^"]+)"\})/g)) add(m[1] ?? m[2], m.index);
  // message refs: "ns:key" literals whose namespace is one of ours ("ns:group." is a prefix)
  for (const m of src.matchAll(/["'`]([a-zA-Z]+):([\w.]+)["'`|]/g))
    if (NAMESPACES.includes(m[1])) {
      const prefix = m[2].endsWith(".");
      uses.push({ ns: m[1], key: prefix ? m[2].slice(0, -1) : m[2], prefix, where: `${rel}:${lineOf(src, m.index)}` });
    }
  if (rel === path.join("lib", "navigation.ts"))
    for (const m of src.matchAll(/\b(?:key|textKey):\s*"([^"]+)"/g)) uses.push({ ns: "common", key: m[1], where: `${rel}:${lineOf(src, m.index)}` });
  return uses;
}

describe("keys the code uses", () => {
  const texts = new Map(["en", "zh"].map((lng) => [lng, new Map(NAMESPACES.map((ns) => [ns, read(lng, ns)]))]));
  const has = (lng: string, u: KeyUse) => {
    const ns = texts.get(lng)!.get(u.ns);
    if (!ns) return false;
    if (u.prefix) return [...ns.keys()].some((k) => k.startsWith(`${u.key}.`));
    // a key used with { count } resolves to key_one / key_other (and zh's key_other)
    return ns.has(u.key) || ns.has(`${u.key}_other`);
  };
  const uses = sources(APP).flatMap((f) => keysUsed(f, fs.readFileSync(f, "utf8")));

  it("the scan finds the keys (so an empty scan cannot pass)", () => {
    expect(uses.length).toBeGreaterThan(500);
    expect(uses).toContainEqual(expect.objectContaining({ ns: "common", key: "menu.home" }));
  });
  for (const lng of ["en", "zh"])
    it(`every key exists in ${lng}`, () => {
      const missing = uses.filter((u) => !has(lng, u)).map((u) => `${u.ns}:${u.key}${u.prefix ? ".*" : ""} (${u.where})`);
      expect([...new Set(missing)]).toEqual([]);
    });

  it("the scanner resolves namespaces as i18next does", () => {
    const src = [
      'export const handle = { i18n: "board" };',
      'function A() { const { t } = useTranslation("admin"); const o = useTranslation("board").t; return t("x.y"); }',
      'function B() { const { t } = useTranslation(); return t(ok ? "a" : "b") + t(`state.${s}`); }',
      'const ref = messageRef("forms:tooLong", { max: 1 }); const other = "node:fs"; r.startsWith("forms:group.");',
    ].join("\n");
    const got = keysUsed(path.join(APP, "routes", "x.tsx"), src).map((u) => `${u.ns}:${u.key}${u.prefix ? ".*" : ""}`);
    expect(got.sort()).toEqual(["admin:x.y", "common:a", "common:b", "common:state.*", "forms:tooLong", "forms:group.*"].sort());
  });
});
