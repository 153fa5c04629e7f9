// /scenesebow, the scene demo's tree models (docs/sebow.md): two models, SearchSpaceModel and
// NeuralDecisionTree, and two algorithms, DI and SPI. Its own route beside /scenes (the classic
// classifiers on the same generated scenes, app/routes/demos/scenesDataset.tsx), which has no slot for tree
// models. The page is app/components/demo/SebowDemo.tsx, the server side
// app/.server/sebow.server.ts.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { demoHeaders } from "~/.server/demoFlow.server.ts";
import { sebowDemoAction, sebowDemoLoader, type SebowPage } from "~/.server/sebow.server.ts";
import { getUser } from "~/.server/session.server.ts";
import { SebowDemo, type SebowAnswer } from "~/components/demo/SebowDemo.tsx";
import { pageTitle } from "~/lib/pageTitle.ts";
import { demoVisitor } from "~/.server/throttle.server.ts";

const PAGE: SebowPage = { route: "/scenesebow", datasets: ["scenes"] };

export const handle = { i18n: ["sebow", "demo"] };
export const meta: MetaFunction = ({ matches }) => pageTitle(matches, "sebow:scenesTitle");
export const headers = demoHeaders;
export const loader = ({ request }: LoaderFunctionArgs) => sebowDemoLoader(PAGE, request);
export const action = async ({ request, context }: ActionFunctionArgs) => sebowDemoAction(PAGE, request, demoVisitor(await getUser(request), context.ip));

export default function SceneSebowDemo() {
  return <SebowDemo page="scenes" d={useLoaderData<typeof loader>()} res={useActionData<typeof action>() as SebowAnswer | undefined} />;
}
