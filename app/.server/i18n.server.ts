// Which language a request is served in: the visitor's choice (the `lng` cookie set by the
// top bar's toggle, /language), else the browser's Accept-Language, else English.
import { createCookie } from "@remix-run/node";
import { createInstance, type i18n as I18n } from "i18next";
import { initReactI18next } from "react-i18next";
import { RemixI18Next } from "remix-i18next/server";
import { FALLBACK_LANGUAGE, LANGUAGES, i18nConfig, isLanguage, resources, type Language, type Namespace } from "~/i18n/config.ts";

export const languageCookie = createCookie("lng", { path: "/", sameSite: "lax", httpOnly: true, maxAge: 365 * 24 * 3600 });

const detector = new RemixI18Next({
  detection: { supportedLanguages: [...LANGUAGES], fallbackLanguage: FALLBACK_LANGUAGE, cookie: languageCookie, order: ["cookie", "header"] },
  i18next: { ...i18nConfig, resources },
});

export async function requestLanguage(request: Request): Promise<Language> {
  const lng = await detector.getLocale(request);
  return isLanguage(lng) ? lng : FALLBACK_LANGUAGE;
}

export const i18nServer = {
  /**
   * A loader's translation function in the request's language. remix-i18next's own getFixedT
   * makes and initialises a new i18next instance on every call (2 % of a signed-in /history);
   * this one takes the language's shared instance (i18nFor).
   */
  async getFixedT<N extends Namespace>(request: Request, ns: N) {
    const lng = await requestLanguage(request);
    return (await i18nFor(lng)).getFixedT(lng, ns);
  },
};

const instances = new Map<Language, Promise<I18n>>();

/**
 * The i18next instance of a language, made once and shared by every render in it: pages
 * (app/entry.server.tsx), plots and fragments. Sharing is safe because an instance's language
 * never changes after it is made (nothing calls changeLanguage on the server), so two visitors
 * in two languages still never share one; making one per request cost about 2 % of a signed-in
 * page's time (docs/performance.md "Signed-in pages").
 */
export function i18nFor(lng: Language): Promise<I18n> {
  let made = instances.get(lng);
  if (!made) {
    const i18n = createInstance();
    made = i18n
      .use(initReactI18next)
      .init({ ...i18nConfig, resources, lng })
      .then(() => i18n);
    instances.set(lng, made);
  }
  return made;
}
