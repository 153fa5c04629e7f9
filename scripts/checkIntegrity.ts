// Storage integrity (docs/security.md "Files"): rows that point at missing files, files that no row
// points at, and approved submissions missing from their board. Prints one count per check and
// every finding (above PRINT_MAX findings, the counts and the path of a file with the full list);
// exits 1 when any count is not 0. Run: npm run -s check-integrity (DATABASE_URL, UPLOAD_DIR,
// EVALUATION_DIR, TREE_TASK_DIR as the app uses them; INTEGRITY_REPORT names the list's file).
import fs from "node:fs";
import path from "node:path";
import { Op } from "sequelize";
import {
  BoardMethod,
  CrackDetection,
  EvaluationRun,
  InferenceCache,
  Picture,
  Submission,
  SubmissionDraft,
  SubmissionStatus,
  TreeTaskImage,
  sequelize,
} from "../models/index.ts";

const uploads = path.resolve(process.env.UPLOAD_DIR ?? "var/uploads");
const evaluations = path.resolve(process.env.EVALUATION_DIR ?? "var/evaluations");
const tasks = path.resolve(process.env.TREE_TASK_DIR ?? "var/tasks");
const PRINT_MAX = 100;

/**
 * Every table that owns files, and where each row's files lie. A new kind of stored file is a new
 * entry here; anything else found under the walked folders is reported as an orphan.
 */
const OWNERS: { table: string; files: () => Promise<{ row: string; file: string }[]> }[] = [
  {
    table: "pictures",
    files: async () =>
      (await Picture.findAll({ attributes: ["id", "filePath", "thumbPath"] })).flatMap((p) => [
        { row: `picture ${p.id}`, file: path.resolve(uploads, p.filePath) },
        { row: `picture ${p.id}`, file: path.resolve(uploads, p.thumbPath) },
      ]),
  },
  {
    table: "inference_cache",
    files: async () =>
      (await InferenceCache.findAll({ attributes: ["id", "heatmapPath", "overlayPath"] })).flatMap((c) => [
        { row: `explanation ${c.id}`, file: path.resolve(uploads, c.heatmapPath) },
        { row: `explanation ${c.id}`, file: path.resolve(uploads, c.overlayPath) },
      ]),
  },
  {
    table: "crack_detections",
    files: async () =>
      (await CrackDetection.findAll({ attributes: ["id", "maskPath"] })).map((d) => ({
        row: `crack detection ${d.id}`,
        file: path.resolve(uploads, d.maskPath),
      })),
  },
  {
    table: "submissions, submission_drafts",
    files: async () =>
      [...(await Submission.findAll()), ...(await SubmissionDraft.findAll())].flatMap((s) =>
        [s.morfFile, s.lerfFile, s.pythonFile]
          .filter((f): f is string => Boolean(f))
          .map((f) => ({ row: `${s instanceof Submission ? "submission" : "draft"} ${s.id}`, file: path.join(uploads, "submissions", f) })),
      ),
  },
  {
    table: "evaluation_runs",
    files: async () =>
      (await EvaluationRun.findAll({ where: { [Op.or]: [{ resultDir: { [Op.ne]: null } }, { mapsFile: { [Op.ne]: null } }] } })).flatMap((r) => [
        ...(r.resultDir
          ? ["morf.csv", "lerf.csv", "images.json"].map((f) => ({ row: `evaluation run ${r.id}`, file: path.join(evaluations, r.resultDir!, f) }))
          : []),
        // The uploaded maps zip of a verified result (app/.server/mapsRuns.server.ts).
        ...(r.mapsFile ? [{ row: `evaluation run ${r.id} (maps)`, file: path.join(uploads, "maps", path.basename(r.mapsFile)) }] : []),
      ]),
  },
  {
    table: "tree_task_images",
    files: async () =>
      (await TreeTaskImage.findAll({ attributes: ["id", "taskId", "file"] })).map((i) => ({
        row: `tree task ${i.taskId} image ${i.id}`,
        file: path.join(tasks, String(i.taskId), path.basename(i.file)),
      })),
  },
];

function walk(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

export async function checkIntegrity(): Promise<{ rowsWithoutFiles: string[]; filesWithoutRows: string[]; approvedWithoutBoardRow: number[] }> {
  const referenced = new Set<string>();
  const rowsWithoutFiles: string[] = [];
  for (const owner of OWNERS)
    for (const { row, file } of await owner.files()) {
      referenced.add(file);
      if (!fs.existsSync(file)) rowsWithoutFiles.push(`${row}: ${file}`);
    }
  // Temporary names (".name.tmp") belong to writes in progress, not to anyone yet; so do uploads
  // still streaming (incoming/*.part written within the grace of app/.server/staleUploads.server.ts).
  const grace = process.env.UPLOAD_PART_GRACE_MS ? Number(process.env.UPLOAD_PART_GRACE_MS) : 60_000;
  const inProgress = (f: string) => f.endsWith(".part") && path.dirname(f) === path.join(uploads, "incoming") && Date.now() - fs.statSync(f).mtimeMs <= grace;
  const filesWithoutRows = [...walk(uploads), ...walk(evaluations), ...walk(tasks)].filter(
    (f) => !referenced.has(f) && !path.basename(f).startsWith(".") && !inProgress(f),
  );
  const approved = await Submission.findAll({ where: { status: SubmissionStatus.approved }, attributes: ["id"] });
  const onBoard = new Set((await BoardMethod.findAll({ where: { submissionId: { [Op.ne]: null } }, attributes: ["submissionId"] })).map((b) => b.submissionId));
  const approvedWithoutBoardRow = approved.map((s) => s.id).filter((id) => !onBoard.has(id));
  return { rowsWithoutFiles, filesWithoutRows, approvedWithoutBoardRow };
}

const result = await checkIntegrity();
await sequelize.close();
const sections: [string, string[]][] = [
  ["rows without files", result.rowsWithoutFiles],
  ["files without rows", result.filesWithoutRows],
  ["approved submissions without a board row", result.approvedWithoutBoardRow.map((id) => `submission ${id}`)],
];
const findings = sections.reduce((n, [, list]) => n + list.length, 0);
if (findings <= PRINT_MAX) {
  for (const [title, list] of sections) {
    console.log(`${title}: ${list.length}`);
    for (const line of list) console.log(`  ${line}`);
  }
} else {
  const report = path.resolve(process.env.INTEGRITY_REPORT ?? "var/integrity-report.txt");
  fs.mkdirSync(path.dirname(report), { recursive: true });
  fs.writeFileSync(report, sections.map(([title, list]) => [`${title}: ${list.length}`, ...list.map((l) => `  ${l}`)].join("\n")).join("\n") + "\n");
  for (const [title, list] of sections) console.log(`${title}: ${list.length}`);
  console.log(`${findings} findings in all; the full list is in ${report}`);
}
process.exit(findings === 0 ? 0 : 1);
