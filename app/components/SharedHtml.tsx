// A fragment every viewer shares (app/.server/fragments.server.tsx): HTML rendered once per content
// version and language, placed in the page as it is. React does not re-render or hydrate what is
// inside (it keeps the server's markup), so the fragment's links, rendered by Remix's <Link>, are
// followed here as client-side navigations; everything in it works without JavaScript.
import { createContext, useContext, useState, type MouseEvent } from "react";
import { useNavigate } from "@remix-run/react";

export interface FragmentRef {
  name: string;
  key: string;
  /** Present in the data of client-side navigations; a document's render takes it from the load context. */
  html?: string;
}

const FragmentContext = createContext<Map<string, string> | null>(null);

/** The server render's fragments (app/entry.server.tsx passes the load context's map). */
export const FragmentProvider = FragmentContext.Provider;

export function SharedHtml({ fragment, className }: { fragment: FragmentRef; className?: string }) {
  const onServer = useContext(FragmentContext);
  const navigate = useNavigate();
  // Hydrating a document: the markup is already in it, under this fragment's name.
  const [inDocument] = useState(() =>
    typeof document === "undefined" ? null : (document.querySelector(`[data-fragment="${CSS.escape(fragment.name)}"]`)?.innerHTML ?? null),
  );
  const html = fragment.html ?? onServer?.get(fragment.key) ?? inDocument ?? "";
  const follow = (e: MouseEvent<HTMLDivElement>) => {
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    // Only the links <Link> rendered (data-discover): downloads and other plain anchors load as usual.
    const a = (e.target as Element).closest("a[data-discover]");
    if (!(a instanceof HTMLAnchorElement) || a.target || a.hasAttribute("download")) return;
    const url = new URL(a.href);
    if (url.origin !== window.location.origin) return;
    e.preventDefault();
    navigate(url.pathname + url.search + url.hash, { preventScrollReset: url.pathname === window.location.pathname });
  };
  return (
    // The fragment's own links and controls are the interactive elements; this only routes their clicks.
    // eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/no-static-element-interactions
    <div className={className} data-fragment={fragment.name} onClick={follow} dangerouslySetInnerHTML={{ __html: html }} suppressHydrationWarning />
  );
}
