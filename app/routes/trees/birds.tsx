// The bird prototype-tree page (docs/tree-service.md). Left: the chosen image and the pool of the
// tree's data (refresh, dataset introduction). Main: model (the platform's trees, named cub1/cub2,
// and the user's saved ones), inference algorithm ("none" disabled, the interpretable method),
// start; the results (ground truth, prediction, probability), the pruned tree with its downloads
// and "change node prototypes", the local explanation with "modify local prediction"; the tree-edit
// view, the save dialog and the running job. With CUB-200-2011 not installed the trees are the
// platform's on its own data and the page says so. Loader and action:
// app/.server/treePage.server.ts.
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import flowCss from "react-flow-renderer/dist/style.css?url";
import { treePageAction, treePageLoader, type TreeActionResult } from "~/.server/treePage.server.ts";
import { JobProgress } from "~/components/tree/JobProgress.tsx";
import { LocalExplanation } from "~/components/tree/LocalExplanation.tsx";
import { ModifyPrediction } from "~/components/tree/ModifyPrediction.tsx";
import { SaveDialog } from "~/components/tree/SaveDialog.tsx";
import { TreeDrawing } from "~/components/tree/TreeDrawing.tsx";
import { TreeEditView } from "~/components/tree/TreeEditView.tsx";
import { TreePool } from "~/components/tree/TreePool.tsx";
import { TreeResult } from "~/components/tree/TreeResult.tsx";
import { TreeRunForm } from "~/components/tree/TreeRunForm.tsx";
import { TreePageHead, treeSource } from "~/components/tree/TreePageHead.tsx";
import { treeHref, type TreeParams } from "~/components/tree/urls.ts";

const ROUTE = "/cub";

export const handle = { i18n: ["trees", "demo"] };
export const links: LinksFunction = () => [{ rel: "stylesheet", href: flowCss }];
export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? "Meta-Rank" }];

export const loader = ({ request }: LoaderFunctionArgs) => treePageLoader(request, "cub");
export const action = ({ request }: ActionFunctionArgs) => treePageAction(request, "cub");

export default function CubPage() {
  const d = useLoaderData<typeof loader>();
  const res = useActionData<typeof action>() as TreeActionResult | undefined;
  const { t } = useTranslation(["trees", "demo"]);
  const keep: TreeParams = { model: d.model, seed: String(d.seed), sample: d.sample, run: d.prediction || d.asked.run ? "1" : "" };
  const source = treeSource(d.tree);
  const jobRunning = Boolean(d.job && d.job.state !== "completed" && d.job.state !== "failed");
  return (
    <section>
      <TreePageHead page="cub" tree={d.tree} ownData={d.ownData} failure={d.failure} res={res} />
      <div className="tree-layout">
        <TreePool page="cub" title={t("cub.poolTitle")} data={d} />
        <div className="tree-main">
          <TreeRunForm title={t("cub.runTitle")} models={d.models} model={d.model} sample={d.sample} modelsError={d.modelsError} errors={res?.errors} />
          {d.job ? (
            <JobProgress
              key={`${d.job.id}:${d.job.state}`}
              job={d.job}
              refreshHref={treeHref(ROUTE, { ...keep, job: d.job.id, edit: d.edit || d.asked.edit ? "1" : "", poll: String(d.nextPoll) }, "job")}
              savedHref={(id) => treeHref(ROUTE, { model: id, seed: String(d.seed), sample: d.sample, run: d.sample ? "1" : "" }, "results")}
            />
          ) : null}
          {(d.save || res?.errors?.name) && d.model ? (
            <SaveDialog model={d.model} sample={d.sample} closeHref={treeHref(ROUTE, keep, "results")} edits={d.edits.length} error={res?.errors?.name} />
          ) : null}
          {d.prediction && source ? <TreeResult title={t("cub.resultTitle")} prediction={d.prediction} source={source} edits={d.edits.length} /> : null}
          {d.prediction && d.model ? (
            <TreeDrawing treeId={d.model} full={false} title={t("prunedTree")} id="tree" edits={d.edits.length}>
              <Link className="p-button p-button-sm p-button-help" to={treeHref(ROUTE, { ...keep, edit: "1" }, "tree-edit")} data-testid="change-prototypes">
                {t("changePrototypes")}
              </Link>
            </TreeDrawing>
          ) : null}
          {d.edit ? (
            <TreeEditView
              route={ROUTE}
              keep={keep}
              graph={d.edit.graph}
              view={d.edit.view}
              node={d.edit.node}
              candidates={d.edit.candidates}
              edits={d.edits}
              errors={res?.errors}
              jobRunning={jobRunning}
            />
          ) : null}
          {d.prediction ? (
            <LocalExplanation title={t("explanationTitle")} prediction={d.prediction}>
              {d.modify || res?.preview ? (
                <ModifyPrediction
                  model={d.model}
                  sample={d.sample}
                  prediction={d.prediction}
                  closeHref={treeHref(ROUTE, keep, "explanation")}
                  preview={res?.preview}
                  error={res?.errors?.favour}
                />
              ) : (
                <Link className="p-button p-button-sm p-button-outlined" to={treeHref(ROUTE, { ...keep, modify: "1" }, "modify")} data-testid="open-modify">
                  {t("modifyLocal")}
                </Link>
              )}
            </LocalExplanation>
          ) : null}
        </div>
      </div>
    </section>
  );
}
