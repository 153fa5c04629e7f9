// The leaderboard's "tasks" table: for each task of the suite, the data and the network that
// define it and how well that network does on its held-out split (issue 14: a page says which
// data and model produced the numbers it shows). Rows come from the checkpoint manifests the
// seeding step read (app/lib/taskModels.ts); a task whose network this server does not have says
// so. A <details> element: it opens without JavaScript.
import { useTranslation } from "react-i18next";
import type { TaskModel } from "~/lib/taskModels.ts";

const ARCH_KEYS = ["resnet", "resnet50", "vgg", "inception"];
const DATASET_KEYS = ["fashion-mnist", "scenes", "scenes64", "textured-shapes"];

const pct = (v: number) => `${(v * 100).toFixed(2)} %`;

export function TaskModels({ tasks, models, images }: { tasks: string[]; models: Record<string, TaskModel | null>; images: number | null }) {
  const { t } = useTranslation("board");
  if (!tasks.some((task) => models[task])) return null;
  return (
    <details className="task-models" data-testid="task-models">
      <summary>{t("taskModels.summary", { count: tasks.length })}</summary>
      <p className="muted">{images ? t("taskModels.intro", { images }) : t("taskModels.introNoSplit")}</p>
      <div className="table-scroll">
        <table className="spread-table task-models-table">
          <thead>
            <tr>
              <th scope="col">{t("taskModels.task")}</th>
              <th scope="col">{t("taskModels.dataset")}</th>
              <th scope="col">{t("taskModels.network")}</th>
              <th scope="col">{t("taskModels.input")}</th>
              <th scope="col">{t("taskModels.accuracy")}</th>
              <th scope="col">{t("taskModels.checkpoint")}</th>
            </tr>
          </thead>
          <tbody>
            {tasks.map((task) => {
              const m = models[task];
              if (!m)
                return (
                  <tr key={task}>
                    <th scope="row">
                      <code>{task}</code>
                    </th>
                    <td colSpan={5} className="muted">
                      {t("taskModels.none")}
                    </td>
                  </tr>
                );
              return (
                <tr key={task}>
                  <th scope="row">
                    <code>{task}</code>
                  </th>
                  <td>{DATASET_KEYS.includes(m.dataset) ? t(`taskModels.datasets.${m.dataset}`) : m.dataset}</td>
                  <td>{ARCH_KEYS.includes(m.arch) ? t(`taskModels.archs.${m.arch}`) : m.arch}</td>
                  <td>
                    {m.input[0]}×{m.input[1]}×{m.input[2]}
                  </td>
                  <td title={m.valHistory ? t("taskModels.curve", { curve: m.valHistory.map(pct).join(" → ") }) : undefined}>
                    {t("taskModels.accuracyValue", { accuracy: pct(m.testAccuracy), images: m.testSize, epochs: m.epochs })}
                  </td>
                  <td>
                    <code>{m.checkpoint}</code>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </details>
  );
}
