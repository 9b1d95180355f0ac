/**
 * The markdown that report.html, plan.html and calibration.html embed (src/report/html/md-to-html.ts):
 * `- ` lines are a bulleted list a reader sees as one, not paragraphs starting with a dash; the
 * text stays escaped, with its `code` and **bold**.
 */
import { describe, expect, test } from 'vitest';
import { mdToHtml } from '../../src/report/html/md-to-html.js';

describe('mdToHtml', () => {
  test('consecutive "- " lines are one <ul>, each an escaped <li> with its code and bold', () => {
    const html = mdToHtml(
      ['SLOs:', '', '- `ttft_p95_ms{flow=chat} < 300`', '- **decodeMs**: 5 <ms> & more.', '', 'After the list.', '- a second list'].join('\n'),
    );
    expect(html).toBe(
      [
        '<p>SLOs:</p>',
        '<ul><li><code>ttft_p95_ms{flow=chat} &lt; 300</code></li><li><strong>decodeMs</strong>: 5 &lt;ms&gt; &amp; more.</li></ul>',
        '<p>After the list.</p>',
        '<ul><li>a second list</li></ul>',
      ].join('\n'),
    );
  });

  test('an indented line continues the item above; a list ends at a blank line, a heading or a table', () => {
    const html = mdToHtml(['- one', '  and its second line', '- two', '## Next', '- three', '| a | b |', '|---|---|', '| 1 | 2 |'].join('\n'));
    expect(html).toBe(
      [
        '<ul><li>one and its second line</li><li>two</li></ul>',
        '<h2>Next</h2>',
        '<ul><li>three</li></ul>',
        '<table><thead><tr><th>a</th><th>b</th></tr></thead><tbody><tr><td>1</td><td>2</td></tr></tbody></table>',
      ].join('\n'),
    );
  });

  test('a dash inside a line, or without its space, is text', () => {
    expect(mdToHtml('workersMax 1 - 3\n-1 ms')).toBe('<p>workersMax 1 - 3</p>\n<p>-1 ms</p>');
  });
});
