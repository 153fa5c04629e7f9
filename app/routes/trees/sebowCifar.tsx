// /cifarsebow (docs/sebow.md): the SeBoW demo on the data its tree was trained on: CIFAR-10/100
// when the operator installed it (CIFAR10_DIR / CIFAR100_DIR on the sidecar, docs/sebow.md) and a
// SeBoW model was trained on it; otherwise the scenes model, and the page says so. Nothing is
// cached. The page is app/components/demo/SebowDemo.tsx, the server side
// app/.server/sebow.server.ts.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { demoHeaders } from "~/.server/demoFlow.server.ts";
import { sebowDemoAction, sebowDemoLoader, type SebowPage } from "~/.server/sebow.server.ts";
import { getUser } from "~/.server/session.server.ts";
import { SebowDemo, type SebowAnswer } from "~/components/demo/SebowDemo.tsx";
import { pageTitle } from "~/lib/pageTitle.ts";
import { demoVisitor } from "~/.server/throttle.server.ts";

const PAGE: SebowPage = { route: "/cifarsebow", datasets: ["cifar10", "cifar100"] };

export const handle = { i18n: ["sebow", "demo"] };
export const meta: MetaFunction = ({ matches }) => pageTitle(matches, "sebow:cifarTitle");
export const headers = demoHeaders;
export const loader = ({ request }: LoaderFunctionArgs) => sebowDemoLoader(PAGE, request);
export const action = async ({ request, context }: ActionFunctionArgs) => sebowDemoAction(PAGE, request, demoVisitor(await getUser(request), context.ip));

export default function CifarSebowDemo() {
  return <SebowDemo page="cifar" d={useLoaderData<typeof loader>()} res={useActionData<typeof action>() as SebowAnswer | undefined} />;
}
