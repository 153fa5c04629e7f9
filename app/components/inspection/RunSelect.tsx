// The crack-detection run picker's <select> (docs/crack-detection.md): the runs the viewer may see,
// each named by its id, dataset, detector, state and photos done. The inspection page and the 3D
// dam viewer pick a run with it, each in its own GET form.
import { useTranslation } from "react-i18next";
import type { RunView } from "~/.server/inspection.server.ts";

export type RunOption = Pick<RunView, "id" | "datasetName" | "modelName" | "state" | "photosDone" | "photosTotal">;

export function RunSelect({ id, runs, value }: { id: string; runs: RunOption[]; value: number | undefined }) {
  const { t } = useTranslation("inspection");
  return (
    <select id={id} name="run" defaultValue={value}>
      {runs.map((r) => (
        <option key={r.id} value={r.id}>
          {t("runs.option", {
            id: r.id,
            dataset: r.datasetName,
            model: r.modelName,
            state: t(`state.${r.state}`),
            done: r.photosDone,
            total: r.photosTotal,
          })}
        </option>
      ))}
    </select>
  );
}
