// Which language a request is served in: the visitor's choice (the `lng` cookie set by the
// top bar's toggle, /language), else the browser's Accept-Language, else English.
import { createCookie } from "@remix-run/node";
import { RemixI18Next } from "remix-i18next/server";
import { FALLBACK_LANGUAGE, LANGUAGES, i18nConfig, isLanguage, resources, type Language } from "~/i18n/config.ts";

export const languageCookie = createCookie("lng", { path: "/", sameSite: "lax", httpOnly: true, maxAge: 365 * 24 * 3600 });

export const i18nServer = new RemixI18Next({
  detection: { supportedLanguages: [...LANGUAGES], fallbackLanguage: FALLBACK_LANGUAGE, cookie: languageCookie, order: ["cookie", "header"] },
  i18next: { ...i18nConfig, resources },
});

export async function requestLanguage(request: Request): Promise<Language> {
  const lng = await i18nServer.getLocale(request);
  return isLanguage(lng) ? lng : FALLBACK_LANGUAGE;
}
