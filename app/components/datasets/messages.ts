// Words of the datasets pages that both the server and the browser show, as message refs; they live
// in the area's rules modules (app/lib/rules/datasets.ts, classification.ts) and are re-exported
// here under the names the pages used first.
import { DATASET_MSG } from "~/lib/rules/datasets.ts";

export { CLASSIFICATION_MSG } from "~/lib/rules/classification.ts";
export const DATA_DETAILS_WARNING = DATASET_MSG.dataDetailsWarning;
export const NO_MATCH_TEXT = DATASET_MSG.noMatch;
