// Where a board row's numbers come from (docs/evaluation.md "Evaluating your own method"), shared
// by the models, the server and the pages. No imports: models/ and client bundles both read it; it is in lib/, outside app/,
// because models/ imports nothing from app/ (README.md "Layout").
//  - "platform": a baseline the platform computed for its own suite (BoardMethod.sourceKey).
//  - "verified": a submission whose result files the platform computed itself from the
//    researcher's attribution maps (an evaluation run of kind "maps").
//  - "self-reported": a submission whose CSV files were uploaded as they are (the original site's flow, docs/product.md "Submission, history and approval").
export const Provenance = { verified: "verified", selfReported: "self-reported" } as const;
export type Provenance = (typeof Provenance)[keyof typeof Provenance];
export const PROVENANCES: readonly Provenance[] = Object.values(Provenance);

/** A board row's source: the platform's baseline, or a submission's provenance. */
export type RowSource = "platform" | Provenance;
