import { useEffect, useState } from "react";

/**
 * On-blur field checks in the browser (the registration and password forms check on blur: docs/product.md "Accounts and profile"). The server repeats
 * every check; this only gives earlier feedback. A fresh answer from the server replaces
 * whatever the browser had found, since the server has the final word.
 */
export function useBlurChecks(serverErrors: Partial<Record<string, string>> | undefined) {
  const [local, setLocal] = useState<Partial<Record<string, string | undefined>>>({});
  useEffect(() => setLocal({}), [serverErrors]);
  const errorOf = (name: string) => (name in local ? local[name] : serverErrors?.[name]);
  const check = (name: string, message: string | undefined) => setLocal((prev) => ({ ...prev, [name]: message }));
  return { errorOf, check };
}
