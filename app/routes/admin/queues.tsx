// /admin/queues without Redis: bull-board is not mounted (app/.server/express.server.ts), so this
// page explains where jobs run instead. With REDIS_URL, Express serves bull-board at this path
// before Remix sees the request.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useTranslation } from "react-i18next";
import { requireAdmin } from "~/.server/session.server.ts";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return {};
}

export default function QueuesWithoutRedis() {
  const { t } = useTranslation();
  return (
    <section className="card" data-testid="queues-in-process">
      <h2>{t("queues.title")}</h2>
      <p>{t("queues.inProcess")}</p>
      <p>{t("queues.howTo")}</p>
    </section>
  );
}
