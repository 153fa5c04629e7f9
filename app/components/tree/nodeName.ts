// The sidecar names a tree's nodes "Node 12" and its leaves "Leaf 3" (sidecar/tree/predict.ts
// nodeName), in English whatever the page's language: the Chinese tree pages showed "Node 0"
// between Chinese words. The names are shown through the page's language instead; any other
// name (a saved tree's own) is shown as it is.
import { useTranslation } from "react-i18next";

export function useNodeName(): (name: string) => string {
  const { t } = useTranslation("trees");
  return (name: string) => {
    const m = /^(Node|Leaf) (\d+)$/.exec(name);
    return m ? t(m[1] === "Node" ? "nodeName" : "leafName", { n: m[2] }) : name;
  };
}
