/**
 * The documentation is findable and its links hold: every relative link of README.md and docs/*.md
 * names a file that exists and, with a #fragment into a Markdown file, a heading of that file (as
 * GitHub makes anchors); docs/README.md lists every page of docs/; docs/scenarios.md indexes every
 * example in scenarios/; the README stays a newcomer's page (under 400 lines); and no user-facing
 * text (docs, scenarios, the CLI's --help and messages) names a README section in prose, or points
 * at documents users do not have. Pure file reads: well under a second.
 */
import { readdirSync, readFileSync, existsSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';

const repo = resolve(import.meta.dirname, '..', '..');
const docs = readdirSync(join(repo, 'docs'))
  .filter((f) => f.endsWith('.md'))
  .sort();
const pages = ['README.md', ...docs.map((f) => `docs/${f}`)];
const read = (p: string) => readFileSync(join(repo, p), 'utf8');

/** Text outside fenced code blocks (links in code are not links). */
function prose(md: string): string {
  return md.replace(/^```[^\n]*\n[\s\S]*?^```\s*$/gm, '');
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens; repeats get -1, -2… */
function anchors(md: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const m of prose(md).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = (m[1] ?? '')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

function links(md: string): string[] {
  return [...prose(md).matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1] ?? '');
}

describe('documentation links and indexes', () => {
  test('anchors follow GitHub', () => {
    expect([...anchors("## Live metrics (`--metrics-listen`)\n## Token streams (`llm`)\n## The endpoint's `/health`\n## A\n## A")]).toEqual([
      'live-metrics---metrics-listen',
      'token-streams-llm',
      'the-endpoints-health',
      'a',
      'a-1',
    ]);
  });

  test('every relative link names an existing file, and an existing heading', () => {
    const bad: string[] = [];
    for (const page of pages) {
      for (const link of links(read(page))) {
        if (/^[a-z]+:/i.test(link)) continue; // http:, https:, mailto:
        const [path = '', frag] = link.split('#');
        const target = path === '' ? page : relative(repo, resolve(dirname(join(repo, page)), path));
        if (!existsSync(join(repo, target))) {
          bad.push(`${page}: ${link} (no ${target})`);
          continue;
        }
        if (frag !== undefined && target.endsWith('.md') && statSync(join(repo, target)).isFile() && !anchors(read(target)).has(frag)) {
          bad.push(`${page}: ${link} (no heading #${frag} in ${target})`);
        }
      }
    }
    expect(bad).toEqual([]);
  });

  test('docs/README.md lists every page of docs/, and the README links the index', () => {
    const index = links(read('docs/README.md'));
    expect(docs.filter((f) => f !== 'README.md' && !index.includes(f))).toEqual([]);
    expect(links(read('README.md'))).toContain('docs/README.md');
  });

  test('docs/scenarios.md indexes every example in scenarios/', () => {
    const index = links(read('docs/scenarios.md'));
    const examples = readdirSync(join(repo, 'scenarios')).filter((f) => /\.(ya?ml|json|csv)$/.test(f));
    expect(examples.filter((f) => !index.includes(`../scenarios/${f}`))).toEqual([]);
  });

  test('every example scenario opens with a comment saying what it shows', () => {
    for (const f of readdirSync(join(repo, 'scenarios')).filter((x) => x.endsWith('.yaml'))) {
      expect(read(`scenarios/${f}`), f).toMatch(new RegExp(`^# ${f.replace(/\.yaml$/, '')}: `));
    }
  });

  test("the README stays a newcomer's page: under 400 lines", () => {
    expect(read('README.md').split('\n').length).toBeLessThan(400);
  });

  test('user-facing text points at no README section and cites no document users do not have', () => {
    const files = [
      ...pages,
      // The examples' files, and the READMEs of their folders (scenarios/traces/: the traces themselves are data).
      ...readdirSync(join(repo, 'scenarios'), { recursive: true, encoding: 'utf8' })
        .filter((f) => !f.includes('/') || f.endsWith('README.md'))
        .filter((f) => statSync(join(repo, 'scenarios', f)).isFile())
        .map((f) => `scenarios/${f}`),
      ...readdirSync(join(repo, 'src', 'cli'), { recursive: true, encoding: 'utf8' })
        .filter((f) => f.endsWith('.ts'))
        .map((f) => `src/cli/${f}`),
    ];
    const bad: string[] = [];
    for (const f of files) {
      const text = read(f);
      // Links into the README are checked above; a section named in prose is not, so none is.
      const rules = f.startsWith('src/') ? [/README/] : [/README "/, /README's/, /spec §/, /\bFACTS\b/, /\bCONTRACT\b/, /\bDESIGN\b/];
      for (const re of rules) if (re.test(text)) bad.push(`${f}: ${re.source}`);
    }
    expect(bad).toEqual([]);
  });
});
