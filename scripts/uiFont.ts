// The interface's Chinese font: Noto Sans SC cut down to the characters the interface itself uses
// (docs/i18n.md "Chinese font"). One small file per weight, preloaded by root.tsx, so Chinese text
// is laid out with it from the first paint. @fontsource's unicode-range slices stay behind it for
// characters the interface does not contain (dataset names, user text): Chromium left text laid out
// before a slice arrived as boxes on machines without a CJK system font.
//
//   npm run -s ui-font           regenerate app/styles/fonts/ (fetches the full font with `npm pack`)
//   npm run -s ui-font -- --check  exit 1 when the interface uses a character the subset lacks
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const FONT_DIR = path.join(ROOT, "app/styles/fonts");
export const CHARS_FILE = path.join(FONT_DIR, "noto-sans-sc-ui.chars.txt");
// The full Noto Sans SC TTFs (SIL Open Font License) as Google Fonts publishes them, repackaged on npm.
const SOURCE_PACKAGE = "@expo-google-fonts/noto-sans-sc@0.4.3";
const WEIGHTS = [
  { weight: 400, ttf: "package/400Regular/NotoSansSC_400Regular.ttf" },
  { weight: 700, ttf: "package/700Bold/NotoSansSC_700Bold.ttf" },
] as const;

/** Every character outside ASCII that the interface's sources and translations contain, plus printable ASCII. */
export function interfaceCharacters(): string {
  const chars = new Set<string>();
  for (let c = 0x20; c < 0x7f; c++) chars.add(String.fromCharCode(c));
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (full !== FONT_DIR) walk(full);
      } else if (/\.(json|tsx?|css)$/.test(entry.name)) {
        for (const ch of fs.readFileSync(full, "utf8")) if (ch.codePointAt(0)! >= 0x80) chars.add(ch);
      }
    }
  };
  walk(path.join(ROOT, "app"));
  return [...chars].sort((a, b) => a.codePointAt(0)! - b.codePointAt(0)!).join("");
}

export function missingCharacters(): string[] {
  const have = new Set(fs.readFileSync(CHARS_FILE, "utf8"));
  return [...interfaceCharacters()].filter((ch) => !have.has(ch));
}

async function generate() {
  const { default: subsetFont } = await import("subset-font");
  const text = interfaceCharacters();
  const cache = path.join(ROOT, "var/cache/fonts");
  fs.mkdirSync(cache, { recursive: true });
  const tarball = execFileSync("npm", ["pack", SOURCE_PACKAGE, "--silent"], { cwd: cache, encoding: "utf8" }).trim().split("\n").pop()!;
  fs.mkdirSync(FONT_DIR, { recursive: true });
  for (const { weight, ttf } of WEIGHTS) {
    const source = execFileSync("tar", ["-xzOf", path.join(cache, tarball), ttf], { maxBuffer: 64 << 20 });
    const woff2 = await subsetFont(source, text, { targetFormat: "woff2" });
    const out = path.join(FONT_DIR, `noto-sans-sc-ui-${weight}.woff2`);
    fs.writeFileSync(out, woff2);
    console.log(`${path.relative(ROOT, out)}: ${[...text].length} characters, ${(woff2.length / 1024).toFixed(0)} KiB`);
  }
  fs.writeFileSync(CHARS_FILE, text);
  fs.writeFileSync(path.join(FONT_DIR, "OFL.txt"), execFileSync("tar", ["-xzOf", path.join(cache, tarball), "package/LICENSE_FONT"]));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  if (process.argv.includes("--check")) {
    const missing = missingCharacters();
    if (missing.length) {
      console.error(`the interface font lacks ${missing.length} characters (${missing.join("")}): run npm run -s ui-font`);
      process.exit(1);
    }
  } else {
    await generate();
  }
}
