// Storage integrity (docs/security.md): rows that point at missing files, files that no row points
// at, and approved submissions missing from their board. Prints one count per check and exits 1
// when any is not 0. Run: npm run -s check-integrity (DATABASE_URL, UPLOAD_DIR, EVALUATION_DIR as
// the app uses them).
import fs from "node:fs";
import path from "node:path";
import { Op } from "sequelize";
import { BoardMethod, EvaluationRun, InferenceCache, Picture, Submission, SubmissionDraft, SubmissionStatus, sequelize } from "../models/index.ts";

const uploads = path.resolve(process.env.UPLOAD_DIR ?? "var/uploads");
const submissionsDir = path.join(uploads, "submissions");
const evaluations = path.resolve(process.env.EVALUATION_DIR ?? "var/evaluations");

function walk(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

export async function checkIntegrity(): Promise<{ rowsWithoutFiles: string[]; filesWithoutRows: string[]; approvedWithoutBoardRow: number[] }> {
  const referenced = new Set<string>();
  const rowsWithoutFiles: string[] = [];
  const expect = (file: string | null | undefined, row: string) => {
    if (!file) return;
    referenced.add(file);
    if (!fs.existsSync(file)) rowsWithoutFiles.push(`${row}: ${file}`);
  };
  for (const p of await Picture.findAll({ attributes: ["id", "filePath", "thumbPath"] })) {
    expect(path.resolve(uploads, p.filePath), `picture ${p.id}`);
    expect(path.resolve(uploads, p.thumbPath), `picture ${p.id}`);
  }
  for (const c of await InferenceCache.findAll({ attributes: ["id", "heatmapPath", "overlayPath"] })) {
    expect(path.resolve(uploads, c.heatmapPath), `explanation ${c.id}`);
    expect(path.resolve(uploads, c.overlayPath), `explanation ${c.id}`);
  }
  for (const s of [...(await Submission.findAll()), ...(await SubmissionDraft.findAll())]) {
    const kind = s instanceof Submission ? "submission" : "draft";
    for (const f of [s.morfFile, s.lerfFile, s.pythonFile]) if (f) expect(path.join(submissionsDir, f), `${kind} ${s.id}`);
  }
  for (const r of await EvaluationRun.findAll({ where: { resultDir: { [Op.ne]: null } } }))
    for (const f of ["morf.csv", "lerf.csv", "images.json"]) expect(path.join(evaluations, r.resultDir!, f), `evaluation run ${r.id}`);
  // Temporary names (".name.tmp") belong to writes in progress, not to anyone yet.
  const filesWithoutRows = [...walk(uploads), ...walk(evaluations)].filter((f) => !referenced.has(f) && !path.basename(f).startsWith("."));
  const approved = await Submission.findAll({ where: { status: SubmissionStatus.approved }, attributes: ["id"] });
  const onBoard = new Set((await BoardMethod.findAll({ where: { submissionId: { [Op.ne]: null } }, attributes: ["submissionId"] })).map((b) => b.submissionId));
  const approvedWithoutBoardRow = approved.map((s) => s.id).filter((id) => !onBoard.has(id));
  return { rowsWithoutFiles, filesWithoutRows, approvedWithoutBoardRow };
}

const result = await checkIntegrity();
await sequelize.close();
console.log(`rows without files: ${result.rowsWithoutFiles.length}`);
for (const r of result.rowsWithoutFiles.slice(0, 20)) console.log(`  ${r}`);
console.log(`files without rows: ${result.filesWithoutRows.length}`);
for (const f of result.filesWithoutRows.slice(0, 20)) console.log(`  ${f}`);
console.log(`approved submissions without a board row: ${result.approvedWithoutBoardRow.length}`);
process.exit(result.rowsWithoutFiles.length + result.filesWithoutRows.length + result.approvedWithoutBoardRow.length === 0 ? 0 : 1);
