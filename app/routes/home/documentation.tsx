import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { i18nServer } from "~/.server/i18n.server.ts";

export const handle = { i18n: "docs" };

export async function loader({ request }: LoaderFunctionArgs) {
  const t = await i18nServer.getFixedT(request, "docs");
  return { title: t("metaTitle") };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? "Meta-Rank" }];

const SECTION_IDS = ["concepts", "datasets", "algorithms", "workflow", "users"] as const;

export default function Documentation() {
  const { t, i18n } = useTranslation("docs");
  const [active, setActive] = useState<string>(SECTION_IDS[0]);
  // Highlight the section being read: the last section whose top has scrolled past the header.
  useEffect(() => {
    const onScroll = () => {
      let current: string = SECTION_IDS[0];
      for (const id of SECTION_IDS) {
        const el = document.getElementById(id);
        if (el && el.getBoundingClientRect().top <= 120) current = id;
      }
      setActive(current);
    };
    onScroll();
    window.addEventListener("scroll", onScroll, { passive: true });
    return () => window.removeEventListener("scroll", onScroll);
  }, []);
  return (
    <div className="doc-layout">
      <nav className="doc-menu card" aria-label={t("menuLabel")}>
        {SECTION_IDS.map((id) => (
          <a
            key={id}
            href={`#${id}`}
            className={active === id ? "active" : undefined}
            aria-current={active === id ? "true" : undefined}
            onClick={(e) => {
              e.preventDefault();
              document.getElementById(id)?.scrollIntoView({ behavior: "smooth" });
              history.replaceState(null, "", `#${id}`);
              setActive(id);
            }}
          >
            {t(`sections.${id}`)}
          </a>
        ))}
      </nav>
      <div>
        <h1 className="visually-hidden">{t("metaTitle")}</h1>
        <section id="concepts" className="card doc-section">
          <h2>{t("sections.concepts")}</h2>
          <p>{t("concepts.p1")}</p>
          <p>{t("concepts.p2")}</p>
          <p>{t("concepts.p3")}</p>
          <figure>
            {/* Real screens of this platform with captions in both languages (make doc-video regenerates all three). */}
            <video controls preload="metadata" width="100%" poster="/doc/intro-poster.png" data-testid="doc-video">
              <source src="/doc/intro.webm" type="video/webm" />
              <track kind="captions" src="/doc/intro.en.vtt" srcLang="en" label="English" default={i18n.language !== "zh"} />
              <track kind="captions" src="/doc/intro.zh.vtt" srcLang="zh" label="中文" default={i18n.language === "zh"} />
              {t("concepts.noVideo")}
            </video>
            <figcaption className="muted">{t("concepts.video")}</figcaption>
          </figure>
        </section>
        <DocSection
          id="datasets"
          title={t("sections.datasets")}
          lead={t("datasets.p1")}
          items={[t("datasets.fashion"), t("datasets.scenes"), t("datasets.operator")]}
          after={t("datasets.choose")}
        />
        <DocSection
          id="algorithms"
          title={t("sections.algorithms")}
          lead={t("algorithms.p1")}
          items={[t("algorithms.gradient"), t("algorithms.cam"), t("algorithms.perturbation")]}
          after={t("algorithms.choose")}
        />
        <DocSection
          id="workflow"
          title={t("sections.workflow")}
          ordered
          items={[t("workflow.read"), t("workflow.evaluate"), t("workflow.score"), t("workflow.submit"), t("workflow.approve")]}
        />
        <DocSection id="users" title={t("sections.users")} items={[t("users.visitor"), t("users.user"), t("users.admin")]} />
      </div>
    </div>
  );
}

/** A section of the guide that is a list: its title, the paragraph before the list and the one after, where it has them. */
function DocSection({
  id,
  title,
  lead,
  items,
  ordered = false,
  after,
}: {
  id: string;
  title: string;
  lead?: string;
  items: string[];
  ordered?: boolean;
  after?: string;
}) {
  const List = ordered ? "ol" : "ul";
  return (
    <section id={id} className="card doc-section">
      <h2>{title}</h2>
      {lead ? <p>{lead}</p> : null}
      <List>
        {items.map((item, i) => (
          <li key={i}>{item}</li>
        ))}
      </List>
      {after ? <p>{after}</p> : null}
    </section>
  );
}
