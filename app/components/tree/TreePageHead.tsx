// The top of the two prototype-tree pages, /cub and /cars (docs/tree-service.md): their styles,
// title and introduction, which data the tree was trained on, the form's error and the compute
// server's failure. Each page keeps its own steps below it.
import { useTranslation } from "react-i18next";
import type { TreeActionResult } from "~/.server/treePage.server.ts";
import { DemoFailurePanel, type DemoFailure } from "~/components/DemoFailurePanel.tsx";
import { DatasetStyles } from "~/components/datasets/styles.tsx";
import { TreeStyles } from "~/components/tree/styles.tsx";
import type { TreeSource } from "~/components/tree/TreeResult.tsx";
import { translateMessage } from "~/lib/forms/messages.ts";

/** What the result step says about the tree that answered (null before a tree is chosen). */
export function treeSource(tree: TreeSource | null): TreeSource | null {
  if (!tree) return null;
  const { name, datasetName, testAccuracy, cnnAccuracy, owner, depth, leaves } = tree;
  return { name, datasetName, testAccuracy, cnnAccuracy, owner, depth, leaves };
}

export function TreePageHead({
  page,
  tree,
  ownData,
  failure,
  res,
}: {
  page: "cub" | "cars";
  tree: { datasetName: string } | null;
  ownData: boolean;
  failure: DemoFailure | null;
  res: TreeActionResult | undefined;
}) {
  const { t } = useTranslation(["trees", "demo"]);
  return (
    <>
      <DatasetStyles />
      <TreeStyles />
      <h1>{t(`${page}.title`)}</h1>
      <p className="muted">{t(`${page}.intro`)}</p>
      {tree ? (
        <p className="muted" data-testid="trained-on">
          {ownData ? t(`${page}.notInstalled`, { data: tree.datasetName }) : t("trainedOn", { data: tree.datasetName })}
        </p>
      ) : null}
      {res?.errors?.form ? (
        <p className="notice-error" role="alert" data-testid="form-error">
          {translateMessage(t, res.errors.form)}
        </p>
      ) : null}
      {failure ? <DemoFailurePanel failure={failure} /> : null}
      {res?.failure ? <DemoFailurePanel failure={res.failure} /> : null}
    </>
  );
}
