// Module-resolution hooks for a researcher's method module that lives outside the platform's
// checkout (issue 36 §2; docs/adding-an-attribution-method.md "A method module in your own folder").
// Node resolves a bare import such as "@tensorflow/tfjs" from the importing file's folder upwards,
// so a module in ~/research found no tfjs (or, worse, a second copy of it whose tensors the
// platform's runtime cannot read). methodModule.ts registers these hooks (node:module register)
// in every thread that imports a module; they only change imports made by files outside the
// checkout:
// - the platform's tensor library (@tensorflow/*) always resolves to the platform's own copy, so
//   the module's tf and the worker's tf are one module instance with one backend;
// - any other bare import is resolved from the module's folder first (the researcher's own
//   packages win) and, when not found there, from the platform's checkout.
// Plain JavaScript: hooks run on Node's loader thread, before any TypeScript loader is involved.

/** file URL of the platform's package.json (the parent that platform packages resolve from). */
let platformParent = "";
/** file URL prefix of the checkout: files under it resolve as they always did. */
let platformRoot = "";

export function initialize(data) {
  platformRoot = data.platformRoot;
  platformParent = new URL("package.json", platformRoot).href;
}

function isBare(specifier) {
  return !/^(\.{1,2}\/|\/|[a-zA-Z][a-zA-Z0-9+.-]*:)/.test(specifier) && specifier !== "." && specifier !== "..";
}

const PLATFORM_FIRST = /^@tensorflow\//;

export async function resolve(specifier, context, nextResolve) {
  const parent = context.parentURL;
  if (!platformRoot || !parent || !parent.startsWith("file:") || parent.startsWith(platformRoot) || !isBare(specifier)) {
    return nextResolve(specifier, context);
  }
  if (PLATFORM_FIRST.test(specifier)) return nextResolve(specifier, { ...context, parentURL: platformParent });
  try {
    return await nextResolve(specifier, context);
  } catch (err) {
    if (err?.code !== "ERR_MODULE_NOT_FOUND") throw err;
    return nextResolve(specifier, { ...context, parentURL: platformParent });
  }
}
