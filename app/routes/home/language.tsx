// The top bar's language toggle posts here (a plain form, so it works without JavaScript):
// the choice goes into the `lng` cookie and the visitor returns to the page they were on.
import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { languageCookie } from "~/.server/i18n.server.ts";
import { safeRedirect } from "~/.server/session.server.ts";
import { FALLBACK_LANGUAGE, isLanguage } from "~/i18n/config.ts";
import { checkFormData } from "~/.server/forms.server.ts";

export async function action({ request }: ActionFunctionArgs) {
  const form = checkFormData(await request.formData());
  const lng = form.get("lng");
  const chosen = isLanguage(lng) ? lng : FALLBACK_LANGUAGE;
  return redirect(safeRedirect(form.get("redirectTo")), { headers: { "Set-Cookie": await languageCookie.serialize(chosen) } });
}

export function loader() {
  return redirect("/homepage");
}
