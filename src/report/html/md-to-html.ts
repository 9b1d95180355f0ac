/**
 * The markdown subset loadlab's .md files use (headings, tables, paragraphs, lists of `- ` lines,
 * `code`, **bold**) as HTML: report.html, plan.html and calibration.html embed their markdown
 * through it. Text is escaped.
 */
import { esc } from './escape.js';

const inline = (s: string) =>
  esc(s)
    .replace(/`([^`]+)`/g, '<code>$1</code>')
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>');

export function mdToHtml(md: string): string {
  const out: string[] = [];
  const lines = md.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    if (l.startsWith('# ')) out.push(`<h1>${inline(l.slice(2))}</h1>`);
    else if (l.startsWith('## ')) out.push(`<h2>${inline(l.slice(3))}</h2>`);
    else if (l.startsWith('|')) {
      const rows: string[][] = [];
      for (; i < lines.length && lines[i]!.startsWith('|'); i++)
        rows.push(
          lines[i]!.slice(1, -1)
            .split(' | ')
            .map((c) => c.trim()),
        );
      i--;
      const [head, , ...body] = rows;
      out.push(
        `<table><thead><tr>${head!.map((c) => `<th>${inline(c)}</th>`).join('')}</tr></thead><tbody>${body.map((r) => `<tr>${r.map((c) => `<td>${inline(c)}</td>`).join('')}</tr>`).join('')}</tbody></table>`,
      );
    } else if (l.startsWith('- ')) {
      // Consecutive `- ` lines are one list; an indented line continues the item above it.
      const items: string[] = [];
      for (; i < lines.length && (lines[i]!.startsWith('- ') || (items.length > 0 && /^ +\S/.test(lines[i]!))); i++) {
        const t = lines[i]!;
        if (t.startsWith('- ')) items.push(t.slice(2));
        else items[items.length - 1] += ` ${t.trim()}`;
      }
      i--;
      out.push(`<ul>${items.map((t) => `<li>${inline(t.replace(/ {2}$/, ''))}</li>`).join('')}</ul>`);
    } else if (l.trim()) out.push(`<p>${inline(l.replace(/ {2}$/, ''))}</p>`);
  }
  return out.join('\n');
}
