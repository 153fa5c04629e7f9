// The request's Content-Security-Policy nonce (server/securityHeaders.ts), for the inline scripts
// Remix renders. Only the server render knows it; in the browser it is "" (browsers hide nonces).
import { createContext, useContext } from "react";

const NonceContext = createContext("");

export const NonceProvider = NonceContext.Provider;

export function useNonce(): string {
  return useContext(NonceContext);
}
