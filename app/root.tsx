import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Links, Meta, Outlet, Scripts, ScrollRestoration, isRouteErrorResponse, useLoaderData, useRouteError, useRouteLoaderData } from "@remix-run/react";
import { PrimeReactProvider } from "primereact/api";
import themeHref from "primereact/resources/themes/lara-light-indigo/theme.css?url";
import primeHref from "primereact/resources/primereact.min.css?url";
import iconsHref from "primeicons/primeicons.css?url";
import appHref from "~/styles/app.css?url";
import { getUser } from "~/.server/session.server.ts";
import { TopMenu } from "~/components/TopMenu.tsx";
import { SiteFooter } from "~/components/SiteFooter.tsx";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: themeHref },
  { rel: "stylesheet", href: primeHref },
  { rel: "stylesheet", href: iconsHref },
  { rel: "stylesheet", href: appHref },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export const meta: MetaFunction = () => [{ title: "Meta-Rank — benchmarking attribution methods" }];

export async function loader({ request }: LoaderFunctionArgs) {
  return { user: await getUser(request) };
}

export function Layout({ children }: { children: React.ReactNode }) {
  const data = useRouteLoaderData<typeof loader>("root");
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body>
        <PrimeReactProvider value={{ ripple: false }}>
          <TopMenu user={data?.user ?? null} />
          <main className="page">{children}</main>
          <SiteFooter />
        </PrimeReactProvider>
        <ScrollRestoration />
        <Scripts />
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
  let title = "Something went wrong";
  let detail = "Please try again later.";
  if (isRouteErrorResponse(error)) {
    if (error.status === 403) {
      title = "403 — Forbidden";
      detail = typeof error.data === "string" && error.data ? error.data : "You do not have permission to see this page.";
    } else if (error.status === 404) {
      title = "404 — Not found";
      detail = typeof error.data === "string" && error.data ? error.data : "There is nothing at this address.";
    } else {
      title = `${error.status} — ${error.statusText || "Error"}`;
      if (typeof error.data === "string" && error.data) detail = error.data;
    }
  }
  return (
    <section className="card narrow error-page">
      <h1>{title}</h1>
      <p>{detail}</p>
      <p>
        <a href="/homepage">Back to the home page</a>
      </p>
    </section>
  );
}
