import { seedAdmin } from "./admin.ts";

export interface SeedStep {
  name: string;
  /** Returns a one-line summary of what it did. */
  run(): Promise<string>;
}

export const SEED_STEPS: SeedStep[] = [seedAdmin];
