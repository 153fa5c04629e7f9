import { translateMessage } from "~/lib/forms/messages.ts";
import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Links, Meta, Outlet, Scripts, ScrollRestoration, isRouteErrorResponse, useLoaderData, useRouteError, useRouteLoaderData } from "@remix-run/react";
import { PrimeReactProvider } from "primereact/api";
import themeHref from "primereact/resources/themes/lara-light-indigo/theme.css?url";
import primeHref from "primereact/resources/primereact.min.css?url";
import iconsHref from "primeicons/primeicons.css?url";
import appHref from "~/styles/app.css?url";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { useChangeLanguage } from "remix-i18next/react";
import { requestLanguage } from "~/.server/i18n.server.ts";
import { siteInfo } from "~/.server/env.server.ts";
import { getUser } from "~/.server/session.server.ts";
import { htmlLang, isLanguage, type Language } from "~/i18n/config.ts";
import { useNonce } from "~/lib/nonce.tsx";
import { matchesLanguage, resourceText } from "~/lib/pageTitle.ts";
import notoSansScHref from "@fontsource/noto-sans-sc/400.css?url";
// The interface's own characters in one small file per weight (scripts/uiFont.ts); app.css names them.
import uiFontHref from "~/styles/fonts/noto-sans-sc-ui-400.woff2?url";
import uiFontBoldHref from "~/styles/fonts/noto-sans-sc-ui-700.woff2?url";
import { TopMenu } from "~/components/TopMenu.tsx";
import { SiteFooter } from "~/components/SiteFooter.tsx";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: themeHref },
  { rel: "stylesheet", href: primeHref },
  { rel: "stylesheet", href: iconsHref },
  // Chinese glyphs on every visitor's machine (docs/i18n.md): the interface's characters from the
  // preloaded subset (app.css), anything else (user text) from Noto Sans SC split by unicode-range.
  { rel: "stylesheet", href: notoSansScHref },
  { rel: "stylesheet", href: appHref },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

/**
 * Chinese text laid out before its face of the interface font had arrived stayed in boxes in
 * Chromium after the face loaded (the home page's first heading, bold, on a slow first load):
 * neither font-display nor a fresh layout of the same style redrew it, only a style whose font
 * description is new. So after each batch of font loads the page's letter spacing moves by a
 * ten-thousandth of a pixel (nothing a person can see), and the text is shaped again with the
 * fonts now there. Inline and first in the page, it runs before the app's scripts arrive; the
 * preloads above make the race rare in the first place.
 */
const FONT_REDRAW = `document.fonts&&(function(n){document.fonts.addEventListener("loadingdone",function(){n++;document.documentElement.style.letterSpacing=n/1e4+"px"})})(0)`;

/**
 * The title of pages without their own (the error pages among them), in the page's language: a
 * 403 or 404 says so in its tab as in its heading (app/lib/pageTitle.ts).
 */
export const meta: MetaFunction = ({ error, matches }) => {
  // Without root data (a URL no route matches, a failed root loader) Layout writes the title itself.
  if (!matches.find((m) => m.id === "root")?.data) return [];
  const lng = matchesLanguage(matches);
  if (error) return [{ title: `${resourceText(lng, errorTitleKey(error))} — Meta-Rank` }];
  return [{ title: resourceText(lng, "home:metaTitle") }];
};

/** The heading of an error page, as ErrorBoundary below shows it. */
function errorTitleKey(error: unknown): string {
  if (!error) return "home:metaTitle";
  if (isRouteErrorResponse(error) && error.status === 403) return "common:error.forbidden";
  if (isRouteErrorResponse(error) && error.status === 404) return "common:error.notFound";
  return "common:error.generic";
}

export async function loader({ request }: LoaderFunctionArgs) {
  const [user, locale] = await Promise.all([getUser(request), requestLanguage(request)]);
  const url = new URL(request.url);
  return { user, locale, path: url.pathname + url.search, site: siteInfo() };
}

export function Layout({ children }: { children: React.ReactNode }) {
  const data = useRouteLoaderData<typeof loader>("root");
  const { i18n } = useTranslation();
  // Without root data (a URL no route matches) the request's own i18next instance knows the language.
  const locale: Language = data?.locale ?? (isLanguage(i18n.language) ? i18n.language : "en");
  // The server rendered in `locale`; after the toggle's POST the browser's i18next follows it.
  useChangeLanguage(locale);
  const error = useRouteError();
  const nonce = useNonce();
  // Tests (and people debugging) can tell when the page has become interactive.
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  return (
    <html lang={htmlLang(locale)}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        {/* No root data (a URL no route matches, or the root loader failed): only this render knows the language. */}
        {data ? null : <title>{`${resourceText(locale, errorTitleKey(error))} — Meta-Rank`}</title>}
        {/* Every page shows the toggle's 中文; Chinese pages need the bold face for headings too. */}
        <link rel="preload" as="font" type="font/woff2" href={uiFontHref} crossOrigin="anonymous" />
        {locale === "zh" ? <link rel="preload" as="font" type="font/woff2" href={uiFontBoldHref} crossOrigin="anonymous" /> : null}
        <Links />
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: FONT_REDRAW }} />
      </head>
      <body>
        <PrimeReactProvider value={{ ripple: false }}>
          <TopMenu user={data?.user ?? null} locale={locale} path={data?.path ?? "/homepage"} />
          <main className="page">{children}</main>
          <SiteFooter site={data?.site ?? null} />
        </PrimeReactProvider>
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  useLoaderData<typeof loader>();
  return <Outlet />;
}

export function ErrorBoundary() {
  const error = useRouteError();
  const { t } = useTranslation();
  let title = t("error.generic");
  let detail = t("error.genericDetail");
  if (isRouteErrorResponse(error)) {
    // A message a loader wrote for people; the router's own texts ("No route matches URL …") are not shown.
    const given = typeof error.data === "string" && error.data && !/^Error: |No route matches/.test(error.data) ? error.data : null;
    if (error.status === 403) {
      title = t("error.forbidden");
      detail = given ? translateMessage(t, given) : t("error.forbiddenDetail");
    } else if (error.status === 404) {
      title = t("error.notFound");
      detail = given ? translateMessage(t, given) : t("error.notFoundDetail");
    } else {
      title = t("error.other", { status: error.status, statusText: error.statusText || t("error.otherStatus") });
      if (given) detail = translateMessage(t, given);
    }
  }
  return (
    <section className="card narrow error-page">
      <h1>{title}</h1>
      <p>{detail}</p>
      <p>
        <a href="/homepage">{t("error.back")}</a>
      </p>
    </section>
  );
}
