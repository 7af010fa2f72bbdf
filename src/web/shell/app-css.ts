// The stylesheet of the pages the application runs on (styles/app.css, imported after global.css) begins
// with a marker rule. The pages the server sends without the application (home, guides, legal texts, error
// pages) leave everything from that rule to the end of the inlined stylesheet out: about 30 of 53 KB that
// they would download, parse and match before their first paint.
const APP_CSS_MARKER = /\.app-css-start\s*\{/;

/** The page template without the application's styles; unchanged when it has none inlined (development). */
export function withoutAppCss(template: string): string {
  const marker = APP_CSS_MARKER.exec(template);
  if (!marker) return template;
  const end = template.indexOf('</style>', marker.index);
  if (end < 0) throw new Error('withoutAppCss: the application styles are not inside the inlined stylesheet');
  return template.slice(0, marker.index) + template.slice(end);
}
