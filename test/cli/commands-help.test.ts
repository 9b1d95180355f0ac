// `loadlab` loads only the module of the command it runs (cli/main.ts); the others are listed
// from commands/catalog.ts. Every command must still show in `--help`, run with its own options,
// and an unknown one must still be refused.
import { describe, expect, test } from 'vitest';
import { COMMANDS } from '../../src/cli/commands/catalog.js';
import { batched } from '../helpers/cli-batch.js';

// Every command line of this file, run in one child process (test/helpers/cli-batch.ts).
const LINES = [['--help'], ...Object.keys(COMMANDS).map((name) => [name, '--help']), ['bogus'], [], ['report', '/nonexistent/report.json']];
const result = batched(() => LINES.map((args) => ({ args })));
const cli = (...args: string[]) => result(LINES.findIndex((l) => l.join(' ') === args.join(' ')));
const oneLine = (s: string) => s.replace(/\s+/g, ' ');

describe('the command line', () => {
  test('--help lists every command with its description', () => {
    const r = cli('--help');
    expect(r.status).toBe(0);
    for (const { command, describe } of Object.values(COMMANDS)) {
      expect(oneLine(r.stdout)).toContain(`loadlab ${command}`);
      expect(oneLine(r.stdout)).toContain(describe);
    }
  });

  test.each(Object.keys(COMMANDS))("`%s --help` shows the command's own options or subcommands", (name) => {
    const r = cli(name, '--help');
    expect(r.status, r.stderr).toBe(0);
    const own: Record<string, string> = {
      run: '--target',
      blast: '--op',
      serve: '--config',
      report: '--start-time',
      compare: '--fail-on-regression',
      plan: 'plan merge',
      merge: '<dirs..>',
      k8s: 'k8s run',
      calibrate: '--scenario',
    };
    expect(r.stdout).toContain(own[name]);
  });

  test('an unknown command, or none, exits 2 with a message', () => {
    const bogus = cli('bogus');
    expect([bogus.status, bogus.stderr]).toEqual([2, 'loadlab: Unknown argument: bogus\n']);
    const none = cli();
    expect([none.status, none.stderr]).toEqual([2, 'loadlab: Name a command (see --help).\n']);
  });

  test('a command runs with its module loaded: report of a missing file names it', () => {
    const r = cli('report', '/nonexistent/report.json');
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('/nonexistent/report.json');
  });
});
