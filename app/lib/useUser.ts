import { useRouteLoaderData } from "@remix-run/react";
import type { CurrentUser } from "~/.server/session.server.ts";

/** The signed-in user from the root loader, or null for visitors. */
export function useOptionalUser(): CurrentUser | null {
  return (useRouteLoaderData("root") as { user: CurrentUser | null } | undefined)?.user ?? null;
}
