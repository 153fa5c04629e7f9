// /imagenet (one of the per-dataset demo pages): the common demo flow bound to the operator's
// ImageNet pictures (IMAGENET_DIR, seeded as the installed dataset "imagenet") and a classifier
// imported from ONNX with --dataset imagenet (docs/onnx-import.md). Without either, the page says
// what is missing and what an operator does (app/components/demo/DatasetDemoPage.tsx).
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { datasetDemoAction, datasetDemoLoader, demoHeaders, type DatasetDemo } from "~/.server/demoFlow.server.ts";
import { DatasetDemoPage, type DatasetDemoAnswer } from "~/components/demo/DatasetDemoPage.tsx";
import { pageTitle } from "~/lib/pageTitle.ts";

const DEMO: DatasetDemo = { route: "/imagenet", slug: "imagenet", modelDataset: "imagenet", folderEnv: "IMAGENET_DIR", modelsFrom: "import" };

export const handle = { i18n: ["demos", "demo"] };
export const meta: MetaFunction = ({ matches }) => pageTitle(matches, "demos:imagenet.title");
export const headers = demoHeaders;
export const loader = ({ request }: LoaderFunctionArgs) => datasetDemoLoader(DEMO, request);
export const action = ({ request, context }: ActionFunctionArgs) => datasetDemoAction(DEMO, request, context.ip);

export default function ImagenetDemo() {
  return <DatasetDemoPage page="imagenet" route={DEMO.route} d={useLoaderData<typeof loader>()} res={useActionData<typeof action>() as DatasetDemoAnswer} />;
}
