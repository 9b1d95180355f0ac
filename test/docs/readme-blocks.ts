/**
 * The fenced code blocks of a Markdown file, in order, with the language of each and whether the
 * README test runs it. A block is skipped when the line right before its fence (blank lines
 * aside) is `<!-- readme-test: skip (reason) -->`; the reason is required.
 */
export interface CodeBlock {
  /** The fence's info string: `sh`, `ts`, `js`, `text`… */
  lang: string;
  code: string;
  /** 1-based line of the opening fence. */
  line: number;
  /** Why the test does not run it; undefined when it runs. */
  skip: string | undefined;
}

const SKIP = /^<!--\s*readme-test:\s*skip\s*\((.+)\)\s*-->$/;
const MARKER = /<!--\s*readme-test:/;

export function codeBlocks(markdown: string): CodeBlock[] {
  const lines = markdown.split('\n');
  const blocks: CodeBlock[] = [];
  let lastText = '';
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i] ?? '';
    const open = /^```(\S*)\s*$/.exec(l);
    if (!open) {
      if (l.trim() !== '') lastText = l.trim();
      continue;
    }
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !/^```\s*$/.test(lines[i] ?? ''); i++) body.push(lines[i] ?? '');
    if (i >= lines.length) throw new Error(`line ${start + 1}: code block never closed`);
    let skip: string | undefined;
    if (MARKER.test(lastText)) {
      const m = SKIP.exec(lastText);
      if (!m?.[1]?.trim()) throw new Error(`line ${start}: readme-test marker must be "<!-- readme-test: skip (reason) -->"`);
      skip = m[1].trim();
    }
    blocks.push({ lang: open[1] ?? '', code: body.join('\n'), line: start + 1, skip });
    lastText = '';
  }
  return blocks;
}
