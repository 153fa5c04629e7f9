import type { MigrationFn } from "../migrate.ts";

// Labelling (/labelPage, docs/datasets.md "Labelling"). The class list of a dataset needs no new
// column: it is datasets.class_names (JSON array of names, 20261121-0300), which the seeding step already
// fills for the platform's datasets, and a picture's label is pictures.label. What labelling adds
// is the questions asked of them on every page: "how many pictures of this dataset are labelled"
// (the progress), "which labels are in use" (a class cannot be removed while it labels pictures)
// and "which datasets have no unlabelled picture left" (the training page). This index answers all
// three from the index alone, without reading the picture rows.
export const up: MigrationFn = async ({ context: qi }) => {
  await qi.addIndex("pictures", ["dataset_id", "label"], { name: "pictures_dataset_label" });
};

export const down: MigrationFn = async ({ context: qi }) => {
  await qi.removeIndex("pictures", "pictures_dataset_label");
};
