// What a suite must look like for its result files to be checkable: task ids and an optional
// removal grid (docs/metascore.md "Suites", "Result files"). Shared by the CLI (suite.json) and the
// gRPC service.
import type { SuiteExpectation } from "./methodFiles.ts";

/** Problems with a suite's task list and grid; empty when usable. */
export function suiteProblems(tasks: unknown, grid: unknown): string[] {
  const problems: string[] = [];
  if (!Array.isArray(tasks) || tasks.length === 0) {
    problems.push(`"tasks" must be a non-empty list of task ids`);
  } else {
    const seen = new Set<string>();
    tasks.forEach((task, i) => {
      if (typeof task !== "string" || task.trim() === "" || task !== task.trim() || task.includes(",")) {
        problems.push(`tasks[${i}] must be a task id without commas or surrounding spaces, found ${JSON.stringify(task)}`);
      } else if (seen.has(task)) {
        problems.push(`task "${task}" is listed twice`);
      } else {
        seen.add(task);
      }
    });
  }
  if (grid !== undefined) {
    if (!Array.isArray(grid) || grid.length < 2 || grid.some((v) => typeof v !== "number" || !Number.isFinite(v))) {
      problems.push(`"grid" must be a list of at least two removal fractions`);
    } else if (grid[0] !== 0 || grid[grid.length - 1] !== 1 || grid.some((v, i) => i > 0 && !(v > grid[i - 1]))) {
      problems.push(`"grid" must increase strictly from 0 to 1, found [${grid.join(", ")}]`);
    }
  }
  return problems;
}

/** A suite.json's tasks and grid (other fields are the web app's business). */
export function parseSuiteJson(text: string): { suite: SuiteExpectation } | { problems: string[] } {
  let data: unknown;
  try {
    data = JSON.parse(text.startsWith("\uFEFF") ? text.slice(1) : text);
  } catch (err) {
    return { problems: [`not valid JSON (${(err as Error).message})`] };
  }
  if (typeof data !== "object" || data === null || Array.isArray(data)) {
    return { problems: [`expected a JSON object with "tasks"`] };
  }
  const { tasks, grid } = data as { tasks?: unknown; grid?: unknown };
  const problems = suiteProblems(tasks, grid);
  if (problems.length > 0) return { problems };
  return { suite: { tasks: tasks as string[], grid: grid as number[] | undefined } };
}
