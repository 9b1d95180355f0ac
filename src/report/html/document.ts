/**
 * The shell every loadlab page shares (report.html, compare.html, plan.html): doctype, charset,
 * viewport, title and the page's inline style around its body. Self-contained: nothing linked.
 */
import { esc } from './escape.js';
import { PAGE_CSS } from './page-style.js';

/** A whole HTML document; `title` is escaped here, `body` is HTML; `extraCss` follows the shared style. */
export function htmlDocument(title: string, body: string, extraCss = ''): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title>
<style>${PAGE_CSS}${extraCss}</style>
</head><body>
${body}
</body></html>
`;
}
