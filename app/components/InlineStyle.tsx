/**
 * A <style> element holding one of the app's constant style sheets. React escapes a style
 * element's text children ("a > b" becomes "a &gt; b"), and the HTML parser does not unescape
 * inside <style>, so such a rule broke in the server-rendered page and hydration failed (React
 * #418 on /twodresult, /dam3d, /admin/search_queries). The CSS is the app's own, never user
 * input, so it goes in as raw HTML.
 */
export function InlineStyle({ css }: { css: string }) {
  return <style dangerouslySetInnerHTML={{ __html: css }} />;
}
