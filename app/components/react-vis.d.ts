// react-vis 1.12 ships no types. We import its CommonJS build (dist/index.js), which requires
// the app's React 18; its "main" (dist.min.js) bundles a React 16 of its own.
declare module "react-vis/dist/index.js";
