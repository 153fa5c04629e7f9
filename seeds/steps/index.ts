import { seedAdmin } from "./admin.ts";
import { seedSuites } from "./suites.ts";
import { seedLocalSidecar } from "./localSidecar.ts";
import { seedDatasets } from "./datasets.ts";
import { seedInspection } from "./inspection.ts";

export interface SeedStep {
  name: string;
  /** Returns a one-line summary of what it did. */
  run(): Promise<string>;
}

export const SEED_STEPS: SeedStep[] = [seedAdmin, seedSuites, seedLocalSidecar, seedDatasets, seedInspection];
