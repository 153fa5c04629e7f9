// /task/create_task (docs/tree-service.md "Training tasks and data parallelism"): category
// (ProtPTree / SeBoW), model name, dataset (offered by category), tree height, iterations,
// prototype dimension, optional remarks (Chinese refused: it is not supported there), the
// distributed-training card (ddp_training, ddp_num default 1, at most what the sidecar host serves)
// and the advanced options card (each algorithm's arguments with their descriptions and defaults),
// all from the sidecar's Tree.TaskOptions. The action checks in the form's order and answers with
// 创建成功 / 创建失败任务！ in a dialog. Without JavaScript every category's datasets and options show
// (grouped by category) and the server checks they match.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { requireUser } from "~/.server/session.server.ts";
import { checkFormData } from "~/.server/forms.server.ts";
import { createTreeTask, treeTaskOptions } from "~/.server/treeTasks.server.ts";
import { FieldError, Notice } from "~/components/FieldError.tsx";
import { OutcomeDialog } from "~/components/tasks/OutcomeDialog.tsx";
import { useHydrated } from "~/lib/useHydrated.ts";
import { DEFAULT_DDP_NUM, REMARKS_MAX, TASK_CATEGORIES, TASK_MSG, TREE_DEPTHS, TREE_ITERATIONS, TREE_PROTO_DIMS } from "~/lib/rules/treeTasks.ts";

export const handle = { i18n: ["tasks"] };

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  const reply = await treeTaskOptions();
  const algorithms = TASK_CATEGORIES.map((id) => {
    const a = reply?.algorithms.find((x) => x.id === id);
    return {
      id,
      isSupportDdp: a?.isSupportDdp ?? false,
      datasets: (a?.datasets ?? []).map((d) => ({
        id: d.id,
        name: d.name,
        classes: d.classes,
        trainSize: d.trainSize,
        testSize: d.testSize,
        platform: d.platform,
      })),
      args: (a?.args ?? []).map((x) => ({
        name: x.name,
        description: x.description,
        value: x.value,
        kind: x.kind,
        choices: x.choices,
        min: x.min,
        max: x.max,
      })),
    };
  });
  const keep = (seed: readonly number[], offered: number[] | undefined) => seed.filter((v) => !offered || offered.includes(v));
  return {
    optionsDown: !reply,
    algorithms,
    depths: keep(TREE_DEPTHS, reply?.depths),
    iterations: keep(TREE_ITERATIONS, reply?.iterations),
    protoDims: keep(TREE_PROTO_DIMS, reply?.protoDims),
    maxDdp: Math.max(1, reply?.maxDdp ?? 1),
  };
}

type ActionResult = { message: string; errors: Record<string, string | undefined>; values: Record<string, string> };

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const form = checkFormData(await request.formData());
  const values: Record<string, string> = {};
  for (const [k, v] of form.entries()) if (typeof v === "string" && k.length <= 120) values[k] = v;
  const r = await createTreeTask({ id: user.id, username: user.username }, values);
  if (r.ok) return redirect(`/task/create_task?created=${r.id}`);
  return data<ActionResult>({ message: r.message, errors: r.errors ?? {}, values }, { status: r.status });
}

export default function CreateTask() {
  const { optionsDown, algorithms, depths, iterations, protoDims, maxDdp } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>() as ActionResult | undefined;
  const [params] = useSearchParams();
  const created = params.get("created");
  const busy = useNavigation().state === "submitting";
  const hydrated = useHydrated();
  const { t } = useTranslation("tasks");
  const values = result?.values ?? {};
  const errors = result?.errors ?? {};
  const [category, setCategory] = useState(values.category ?? "");
  // With JavaScript only the chosen category's datasets and options are offered.
  const shown = hydrated ? algorithms.filter((a) => a.id === category) : algorithms;
  const select = (name: string, label: string, choices: readonly number[], placeholder: string) => (
    <div className="field">
      <label htmlFor={`task-${name}`}>{label}</label>
      <select
        id={`task-${name}`}
        name={name}
        className="p-inputtext"
        defaultValue={values[name] ?? ""}
        aria-describedby={`${name}-error`}
        aria-invalid={errors[name] ? true : undefined}
      >
        <option value="">{placeholder}</option>
        {choices.map((c) => (
          <option key={c} value={c}>
            {c}
          </option>
        ))}
      </select>
      <FieldError id={`${name}-error`} message={errors[name]} />
    </div>
  );
  return (
    <>
      <h2>{t("create.title")}</h2>
      {created && !result ? (
        <OutcomeDialog kind="success" message={TASK_MSG.created} detail={t("create.createdDetail", { id: created })} closeTo="/task/my_tasks" />
      ) : null}
      {result ? <OutcomeDialog kind="error" message={TASK_MSG.createFailed} detail={result.message} closeTo="/task/create_task" /> : null}
      {optionsDown ? <Notice kind="warn">{TASK_MSG.optionsDown}</Notice> : null}
      <Form method="post" action="/task/create_task" aria-label={t("create.title")} className="task-form" noValidate>
        <div className="field">
          <label htmlFor="task-category">{t("create.category")}</label>
          <select
            id="task-category"
            name="category"
            className="p-inputtext"
            value={category}
            onChange={(e) => setCategory(e.target.value)}
            aria-describedby="category-error"
          >
            <option value="">{t("create.chooseCategory")}</option>
            {algorithms.map((a) => (
              <option key={a.id} value={a.id}>
                {t(`category.${a.id}`)}
              </option>
            ))}
          </select>
          <FieldError id="category-error" message={errors.category} />
        </div>
        <div className="field">
          <label htmlFor="task-name">{t("create.name")}</label>
          <input
            id="task-name"
            name="name"
            className="p-inputtext"
            maxLength={64}
            defaultValue={values.name ?? ""}
            placeholder={t("create.namePlaceholder")}
            aria-describedby="name-error name-hint"
          />
          <small id="name-hint" className="muted">
            {t("create.nameHint")}
          </small>
          <FieldError id="name-error" message={errors.name} />
        </div>
        <div className="field">
          <label htmlFor="task-dataset">{t("create.dataset")}</label>
          <select
            id="task-dataset"
            name="dataset"
            className="p-inputtext"
            defaultValue={values.dataset ?? ""}
            aria-describedby="dataset-error"
            key={hydrated ? category : "all"}
          >
            <option value="">{t("create.chooseDataset")}</option>
            {shown.map((a) => (
              <optgroup key={a.id} label={a.id}>
                {a.datasets.map((d) => (
                  <option key={d.id} value={d.id}>
                    {t("create.datasetOption", { name: d.name, classes: d.classes, train: d.trainSize, test: d.testSize })}
                  </option>
                ))}
              </optgroup>
            ))}
          </select>
          <FieldError id="dataset-error" message={errors.dataset} />
        </div>
        {select("depth", t("create.depth"), depths, t("create.chooseDepth"))}
        {select("iterations", t("create.iterations"), iterations, t("create.chooseIterations"))}
        {select("protoDim", t("create.protoDim"), protoDims, t("create.chooseProtoDim"))}
        <div className="field">
          <label htmlFor="task-remarks">{t("create.remarks")}</label>
          <textarea
            id="task-remarks"
            name="remarks"
            className="p-inputtext"
            rows={3}
            maxLength={REMARKS_MAX}
            defaultValue={values.remarks ?? ""}
            aria-describedby="remarks-error remarks-hint"
          />
          <small id="remarks-hint" className="muted">
            {t("create.remarksHint", { max: REMARKS_MAX })}
          </small>
          <FieldError id="remarks-error" message={errors.remarks} />
        </div>
        <DdpCard values={values} errors={errors} maxDdp={maxDdp} hydrated={hydrated} />
        {shown.map((a) => (
          <AdvancedOptions key={a.id} algorithm={a} values={values} errors={errors} />
        ))}
        <button type="submit" className="p-button" disabled={busy}>
          {t("create.start")}
        </button>
      </Form>
    </>
  );
}

type Values = Record<string, string>;
type Errors = Record<string, string | undefined>;

/** The distributed-training card: ticked, the count is read (at most what the host serves); with JavaScript the count is off until ticked. */
function DdpCard({ values, errors, maxDdp, hydrated }: { values: Values; errors: Errors; maxDdp: number; hydrated: boolean }) {
  const { t } = useTranslation("tasks");
  const [ddp, setDdp] = useState(values.ddpTraining === "on");
  return (
    <fieldset className="card" data-testid="ddp-card">
      <legend>{t("create.ddpCard")}</legend>
      <label>
        <input type="checkbox" name="ddpTraining" defaultChecked={values.ddpTraining === "on"} onChange={(e) => setDdp(e.target.checked)} />{" "}
        {t("create.ddpTraining")}
      </label>
      <div className="field">
        <label htmlFor="task-ddpNum">{t("create.ddpNum", { max: maxDdp })}</label>
        <input
          id="task-ddpNum"
          name="ddpNum"
          className="p-inputtext"
          type="number"
          min={1}
          max={maxDdp}
          step={1}
          defaultValue={values.ddpNum ?? DEFAULT_DDP_NUM}
          disabled={hydrated && !ddp}
          aria-describedby="ddpNum-error"
        />
        <FieldError id="ddpNum-error" message={errors.ddpNum} />
      </div>
      <p className="muted">{t("create.ddpNote")}</p>
    </fieldset>
  );
}

type Algorithm = ReturnType<typeof useLoaderData<typeof loader>>["algorithms"][number];

/** One category's advanced options card, each field named arg.<category>.<name>. */
function AdvancedOptions({ algorithm, values, errors }: { algorithm: Algorithm; values: Values; errors: Errors }) {
  const { t, i18n } = useTranslation("tasks");
  // The compute server describes its arguments in English (sidecar/tree/trainArgs.ts,
  // sebowTrain.ts SEBOW_ARGS): English pages show its words, which stay right when it changes them;
  // other languages a translation (tasks.json argHelp), or its words for an argument not known here.
  const argHelp = (category: string, name: string, description: string) =>
    i18n.language === "en" ? description : t(`argHelp.${category}.${name}`, { defaultValue: description });
  return (
    <fieldset className="card" data-testid={`args-${algorithm.id}`}>
      <legend>{t("create.argsCard", { category: algorithm.id })}</legend>
      {algorithm.args.length ? null : <p className="muted">{t("create.noArgs")}</p>}
      {algorithm.args.map((arg) => {
        const name = `arg.${algorithm.id}.${arg.name}`;
        const id = `task-arg-${algorithm.id}-${arg.name}`;
        return (
          <div className="field" key={arg.name}>
            <label htmlFor={id}>
              <code>{arg.name}</code> — {argHelp(algorithm.id, arg.name, arg.description)}
            </label>
            {arg.kind === "choice" || arg.kind === "bool" ? (
              <select id={id} name={name} className="p-inputtext" defaultValue={values[name] ?? arg.value} aria-describedby={`${id}-error`}>
                {(arg.kind === "bool" ? ["true", "false"] : arg.choices).map((c) => (
                  <option key={c} value={c}>
                    {c}
                  </option>
                ))}
              </select>
            ) : (
              <input
                id={id}
                name={name}
                className="p-inputtext"
                maxLength={100}
                defaultValue={values[name] ?? arg.value}
                inputMode={arg.kind === "int" ? "numeric" : "decimal"}
                aria-describedby={`${id}-error`}
              />
            )}
            <small className="muted">
              {t("create.argDefault", { value: arg.value || "--" })}
              {arg.min < arg.max ? ` · ${t("create.argRange", { min: arg.min, max: arg.max })}` : ""}
            </small>
            <FieldError id={`${id}-error`} message={errors[name]} />
          </div>
        );
      })}
    </fieldset>
  );
}
