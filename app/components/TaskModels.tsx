// The leaderboard's "tasks" table: for each task of the suite, the data and the network that define
// it and how well that network does on its held-out split, so the page says which data and model
// produced the numbers it shows. Rows come from the checkpoint manifests the seeding step read
// (app/lib/taskModels.ts); a task whose network this server does not have says so. A <details>
// element: it opens without JavaScript.
import { useTranslation } from "react-i18next";
import type { TaskModel } from "~/lib/taskModels.ts";

const ARCH_KEYS = ["resnet", "resnet50", "vgg", "inception"];
const DATASET_KEYS = ["fashion-mnist", "scenes", "scenes64", "textured-shapes"];

const pct = (v: number) => `${(v * 100).toFixed(2)} %`;

/** Validation accuracy by epoch as a small line (server-rendered SVG; the exact values in its title). */
function Curve({ values, label }: { values: number[]; label: string }) {
  const w = 84,
    h = 22,
    pad = 2;
  const lo = Math.min(...values),
    hi = Math.max(...values);
  const x = (i: number) => pad + (values.length === 1 ? (w - 2 * pad) / 2 : (i * (w - 2 * pad)) / (values.length - 1));
  const y = (v: number) => (hi === lo ? h / 2 : h - pad - ((v - lo) * (h - 2 * pad)) / (hi - lo));
  const best = values.indexOf(hi);
  return (
    <svg width={w} height={h} viewBox={`0 0 ${w} ${h}`} role="img" aria-label={label} className="task-curve">
      <title>{label}</title>
      <polyline points={values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ")} fill="none" stroke="currentColor" strokeWidth="1.5" />
      <circle cx={x(best)} cy={y(hi)} r="2.5" fill="currentColor" />
    </svg>
  );
}

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
              <th scope="col">{t("taskModels.curveTitle")}</th>
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
                    <td colSpan={6} className="muted">
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
                  <td>{t("taskModels.accuracyValue", { accuracy: pct(m.testAccuracy), images: m.testSize, epochs: m.epochs })}</td>
                  <td>
                    {m.valHistory && m.valHistory.length > 0 ? (
                      <Curve values={m.valHistory} label={t("taskModels.curve", { curve: m.valHistory.map(pct).join(" → ") })} />
                    ) : (
                      <span className="muted">{t("taskModels.noCurve")}</span>
                    )}
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
