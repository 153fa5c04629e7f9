// Every live demo of the platform, one card each (app/lib/navigation.ts DEMO_PAGES).
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { i18nServer } from "~/.server/i18n.server.ts";
import { DEMO_PAGES } from "~/lib/navigation.ts";

export async function loader({ request }: LoaderFunctionArgs) {
  const t = await i18nServer.getFixedT(request, "common");
  return { title: `${t("demos.demosTitle")} — Meta-Rank` };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? "Meta-Rank" }];

export default function Demos() {
  const { t } = useTranslation();
  return (
    <section className="card">
      <h1>{t("demos.demosTitle")}</h1>
      <p className="muted">{t("demos.demosLead")}</p>
      <div className="grid-2">
        {DEMO_PAGES.map((d) => (
          <article key={d.to} className="card">
            <h2>
              <i className={`pi ${d.icon}`} aria-hidden="true" /> {t(d.key)}
            </h2>
            <p>{t(d.textKey)}</p>
            <Link to={d.to} className="p-button p-component">
              {t("demos.open")}
            </Link>
          </article>
        ))}
      </div>
    </section>
  );
}
