// Naming a task's network must not start a tensor runtime: the seeders (make seed), the suite
// listing and the maps checks import taskCheckpoints.ts, and tfjs's wasm start-up would cost
// them seconds and memory (sidecar/inference/evaluation/taskCheckpoints.ts says why). The
// test walks the static import graph, so a later import that drags tfjs in fails here.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { readSuite } from "../../sidecar/inference/evaluation/suite.ts";
import {
  TaskUnavailableError,
  suiteTaskAvailability,
  taskAvailability,
  taskCheckpoint,
  taskManifest,
} from "../../sidecar/inference/evaluation/taskCheckpoints.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const IMPORT = /^\s*(?:import|export)\s+(?:type\s+)?(?:[^"';]*?\sfrom\s+)?["']([^"']+)["']/gm;

/** Every package a module reaches through its value imports (type-only imports are erased). */
function packagesReached(entry: string): Set<string> {
  const seen = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const m of fs.readFileSync(file, "utf8").matchAll(IMPORT)) {
      if (/^\s*(?:import|export)\s+type\s/.test(m[0])) continue;
      const spec = m[1];
      if (spec.startsWith(".")) visit(path.resolve(path.dirname(file), spec));
      else if (!spec.startsWith("node:")) packages.add(spec.startsWith("@") ? spec.split("/").slice(0, 2).join("/") : spec.split("/")[0]);
    }
  };
  visit(path.join(ROOT, entry));
  return packages;
}

describe("taskCheckpoints.ts", () => {
  it.each(["sidecar/inference/evaluation/taskCheckpoints.ts", "seeds/importSuite.ts"])("%s reaches no tensor runtime", (entry) => {
    const packages = [...packagesReached(entry)];
    expect(packages.filter((p) => p.startsWith("@tensorflow"))).toEqual([]);
    // The walker does follow imports: importSuite reaches the ORM.
    if (entry.startsWith("seeds")) expect(packages).toContain("sequelize");
  });

  it("the net loader's module does reach tfjs (the walker can see it)", () => {
    expect([...packagesReached("sidecar/inference/evaluation/tasks.ts")].some((p) => p.startsWith("@tensorflow"))).toBe(true);
  });

  it("suiteTaskAvailability resolves each suite's pin: the same task id, two networks", () => {
    const local = readSuite("metarank-local");
    const v1 = readSuite("metarank-local-v1");
    expect(suiteTaskAvailability(local, "scenes_vgg")).toMatchObject({ available: true, checkpointId: "vgg-scenes-v2" });
    expect(suiteTaskAvailability(v1, "scenes_vgg")).toMatchObject({ available: true, checkpointId: "vgg-scenes" });
    // Without a pin the task id, then `<arch>-<dataset>`, are tried (docs/evaluation.md §1).
    expect(taskAvailability("scenes_vgg")).toMatchObject({ available: true, checkpointId: "vgg-scenes" });
  });

  it("taskManifest reads the manifest of the checkpoint taskCheckpoint names", () => {
    const local = readSuite("metarank-local");
    const pin = local.evaluation!.checkpoints.scenes64_resnet50;
    const m = taskManifest("scenes64_resnet50", undefined, pin);
    expect(m.id).toBe(pin);
    expect(m.inputShape.slice(0, 2)).toEqual([64, 64]);
    expect(taskCheckpoint("scenes64_resnet50", undefined, pin)).toEqual({ id: m.id, weightsSha256: m.weightsSha256 });
    expect(() => taskManifest("scenes_vgg", undefined, "no-such-checkpoint")).toThrow(TaskUnavailableError);
  });
});
