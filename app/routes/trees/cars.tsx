// The car page (docs/tree-service.md): six steps — choose a car from the pool; choose model (cars1
// and the user's saved trees) and algorithm; the result (ground truth, predicted, probability); the
// tree before pruning; the tree after pruning; the local explanation. Each tree step has the HD
// vector graphic and node-prototype downloads. The same components and server side as the bird page
// (app/components/tree/*, app/.server/treePage.server.ts); with Stanford Cars not installed the
// tree is the platform's on its own data, and the page says so.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { treePageAction, treePageLoader, type TreeActionResult } from "~/.server/treePage.server.ts";
import { LocalExplanation } from "~/components/tree/LocalExplanation.tsx";
import { TreeDrawing } from "~/components/tree/TreeDrawing.tsx";
import { TreePool } from "~/components/tree/TreePool.tsx";
import { TreeResult } from "~/components/tree/TreeResult.tsx";
import { TreeRunForm } from "~/components/tree/TreeRunForm.tsx";
import { TreePageHead, treeSource } from "~/components/tree/TreePageHead.tsx";

export const handle = { i18n: ["trees", "demo"] };
export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? "Meta-Rank" }];

export const loader = ({ request }: LoaderFunctionArgs) => treePageLoader(request, "cars");
export const action = ({ request }: ActionFunctionArgs) => treePageAction(request, "cars");

export default function CarsPage() {
  const d = useLoaderData<typeof loader>();
  const res = useActionData<typeof action>() as TreeActionResult | undefined;
  const { t } = useTranslation(["trees", "demo"]);
  const source = treeSource(d.tree);
  return (
    <section>
      <TreePageHead page="cars" tree={d.tree} ownData={d.ownData} failure={d.failure} res={res} />
      <div className="tree-steps">
        <TreePool page="cars" title={t("cars.step1")} data={d} />
        <TreeRunForm title={t("cars.step2")} models={d.models} model={d.model} sample={d.sample} modelsError={d.modelsError} errors={res?.errors} />
        {d.prediction && source ? (
          <>
            <TreeResult title={t("cars.step3")} prediction={d.prediction} source={source} edits={d.edits.length} />
            <TreeDrawing treeId={d.model} full title={t("cars.step4")} id="tree-full" edits={d.edits.length} />
            <TreeDrawing treeId={d.model} full={false} title={t("cars.step5")} id="tree" edits={d.edits.length} />
            <LocalExplanation title={t("cars.step6")} prediction={d.prediction} />
          </>
        ) : null}
      </div>
    </section>
  );
}
