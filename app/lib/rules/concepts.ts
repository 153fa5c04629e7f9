// The concept page's rules (docs/concepts.md): its page sizes and the order of its checks, at least
// one concept (请至少选择一个概念), then model, algorithm and image. Shared by the page and its action
// (app/routes/demos/concepts.tsx).
import { messageRef } from "../forms/messages.ts";

export const CONCEPT_LIMITS = {
  /** Images in the pool. */
  pool: 8,
  /** Concept slots a page. */
  pageSize: 3,
  /** Concepts one TCAV request scores (each costs R CAVs a layer). */
  maxConcepts: 6,
  /** Pool seeds are small integers in the URL. */
  maxSeed: 1_000_000,
  /**
   * A concept made from a picture dataset (docs/concepts.md "A concept from a picture dataset"):
   * its first `customMax` pictures, and at least `customMin` of them (the sidecar's bounds,
   * sidecar/concepts/experiment.ts).
   */
  customMin: 10,
  customMax: 60,
  /** Datasets offered as concepts in the page's list. */
  customChoices: 40,
} as const;

/** The concept page's algorithm choice (docs/product.md "Concepts"). */
export const CONCEPT_ALGORITHMS = ["TCAV"] as const;

export const CONCEPT_MSG = {
  chooseConcept: messageRef("concepts:msg.chooseConcept"),
  tooManyConcepts: messageRef("concepts:msg.tooManyConcepts", { max: CONCEPT_LIMITS.maxConcepts }),
  unknownConcept: messageRef("concepts:msg.unknownConcept"),
  chooseModel: messageRef("demo:msg.chooseModel"),
  chooseAlgorithm: messageRef("demo:msg.chooseAlgorithm"),
  chooseImage: messageRef("demo:msg.chooseImage"),
  success: messageRef("demo:msg.success"),
  notFound: messageRef("concepts:msg.notFound"),
  datasetNotFound: messageRef("concepts:msg.datasetNotFound"),
  datasetTooSmall: messageRef("concepts:msg.datasetTooSmall", { min: CONCEPT_LIMITS.customMin }),
} as const;

export interface ConceptForm {
  concepts: string[];
  /** A picture dataset's id used as one more concept, or "" (its visibility is checked by the server, not here). */
  dataset: string;
  model: string;
  algorithm: string;
  image: string;
}

/** The page's whole selection, as its one form carries it from page to page (app/routes/demos/concepts.tsx readSelection). */
export interface ConceptSelection extends ConceptForm {
  /** The image pool's seed. */
  seed: number;
  /** The page of concept slots shown. */
  cpage: number;
}

/** Where a refusal is shown: by the image pool (step 1), the concepts (step 2) or the start button (step 3). */
export type ConceptStep = "image" | "concepts" | "run";
export interface ConceptRefusal {
  step: ConceptStep;
  message: string;
}

/** The first failing check in the order of docs/product.md "Concepts", or null. `available`: the slots that have examples; `models`: the offered ids. */
export function checkConceptForm(f: ConceptForm, available: readonly string[], models: readonly string[]): ConceptRefusal | null {
  const count = f.concepts.length + (f.dataset ? 1 : 0);
  if (count === 0) return { step: "concepts", message: CONCEPT_MSG.chooseConcept };
  if (count > CONCEPT_LIMITS.maxConcepts) return { step: "concepts", message: CONCEPT_MSG.tooManyConcepts };
  if (f.concepts.some((c) => !available.includes(c))) return { step: "concepts", message: CONCEPT_MSG.unknownConcept };
  if (f.dataset && !/^\d{1,12}$/.test(f.dataset)) return { step: "concepts", message: CONCEPT_MSG.datasetNotFound };
  if (!f.model || !models.includes(f.model)) return { step: "run", message: CONCEPT_MSG.chooseModel };
  if (!(CONCEPT_ALGORITHMS as readonly string[]).includes(f.algorithm)) return { step: "run", message: CONCEPT_MSG.chooseAlgorithm };
  // Any held-out image may be scored (the pool is a view of them); the sidecar checks the range.
  if (!/^\d{1,6}$/.test(f.image)) return { step: "image", message: CONCEPT_MSG.chooseImage };
  return null;
}
