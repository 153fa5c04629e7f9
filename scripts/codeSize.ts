// Lists what is over the size limits of docs/architecture.md in one folder: files over 600 lines
// and functions over 150 (function declarations, methods, and function or arrow expressions
// assigned to a const or a property), longest first. It only reports: the exit status is 0.
//   node --import tsx scripts/codeSize.ts sidecar [--file-lines 600] [--function-lines 150]
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";

interface Options {
  root: string;
  fileLines: number;
  functionLines: number;
}

function parseArgs(argv: string[]): Options {
  const options: Options = { root: ".", fileLines: 600, functionLines: 150 };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--file-lines") options.fileLines = Number(argv[++i]);
    else if (arg === "--function-lines") options.functionLines = Number(argv[++i]);
    else options.root = arg;
  }
  return options;
}

const SKIP = new Set(["node_modules", "build", "var", ".git", "generated"]);

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (SKIP.has(entry.name)) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(full));
    else if (/\.(ts|tsx|mts|cts)$/.test(entry.name) && !entry.name.endsWith(".d.ts")) out.push(full);
  }
  return out;
}

interface Sized {
  file: string;
  name: string;
  line: number;
  lines: number;
}

/** The name a function is known by: its own, its method's, or the const or property it is assigned to. */
function functionName(node: ts.Node, source: ts.SourceFile): string | null {
  if (ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node)) {
    return node.name ? node.name.getText(source) : "(anonymous)";
  }
  if (ts.isConstructorDeclaration(node)) return "constructor";
  if (ts.isGetAccessor(node) || ts.isSetAccessor(node)) return node.name.getText(source);
  if (ts.isArrowFunction(node) || ts.isFunctionExpression(node)) {
    const parent = node.parent;
    if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) return parent.name.getText(source);
  }
  return null;
}

function longFunctions(file: string, limit: number): Sized[] {
  const text = fs.readFileSync(file, "utf8");
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: Sized[] = [];
  const visit = (node: ts.Node): void => {
    const name = functionName(node, source);
    if (name !== null) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = end - start + 1;
      if (lines > limit) found.push({ file, name, line: start + 1, lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function lineCount(file: string): number {
  const text = fs.readFileSync(file, "utf8");
  return text.endsWith("\n") ? text.split("\n").length - 1 : text.split("\n").length;
}

const options = parseArgs(process.argv.slice(2));
const files = sourceFiles(options.root).sort();
const bigFiles = files
  .map((file) => ({ file, lines: lineCount(file) }))
  .filter((f) => f.lines > options.fileLines)
  .sort((a, b) => b.lines - a.lines);
const bigFunctions = files.flatMap((file) => longFunctions(file, options.functionLines)).sort((a, b) => b.lines - a.lines);

console.log(`files over ${options.fileLines} lines: ${bigFiles.length}`);
for (const f of bigFiles) console.log(`  ${f.lines}\t${f.file}`);
console.log(`functions over ${options.functionLines} lines: ${bigFunctions.length}`);
for (const f of bigFunctions) console.log(`  ${f.lines}\t${f.file}:${f.line}\t${f.name}`);
