/**
 * The `loadlab` command line. Each command is one module under commands/; exit codes follow
 * exit-codes.ts (CONTRACT §1).
 */
import { readFileSync } from 'node:fs';
import yargs from 'yargs';
import { runCommandModule } from './commands/run.js';
import { CliError, EXIT } from './exit-codes.js';

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

export async function main(argv: string[]): Promise<number> {
  let exitCode: number = EXIT.OK;
  const cli = yargs(argv)
    .scriptName('loadlab')
    .usage('$0 <command> [options]\n\nDeterministic load testing and simulation of serverless endpoint job APIs (RunPod-style v2).')
    .command(runCommandModule)
    .command((await import('./commands/blast.js')).blastCommandModule)
    .command((await import('./commands/serve.js')).serveCommand)
    .command((await import('./commands/report.js')).reportCommandModule)
    .command((await import('./commands/compare.js')).compareCommandModule)
    .command((await import('./commands/plan.js')).planCommandModule)
    .command((await import('./commands/merge.js')).mergeCommandModule)
    .command((await import('./commands/k8s.js')).k8sCommandModule)
    .demandCommand(1, 'Name a command (see --help).')
    .strict()
    .version(version())
    .help()
    .alias('h', 'help')
    .epilog('Exit codes: 0 success, 1 runtime error or invalid run, 2 bad usage or invalid config, 99 a threshold failed (compare: a regression beyond --fail-on-regression), 130 run interrupted (Ctrl-C).')
    .fail((msg, err) => {
      throw err ?? new CliError(msg ?? 'bad usage', EXIT.USAGE);
    })
    .exitProcess(false);
  try {
    await cli.parseAsync();
  } catch (e) {
    if (e instanceof CliError) {
      process.stderr.write(`loadlab: ${e.message}\n`);
      exitCode = e.exitCode;
    } else {
      process.stderr.write(`loadlab: ${(e as Error).stack ?? String(e)}\n`);
      exitCode = EXIT.RUNTIME_ERROR;
    }
  }
  return exitCode;
}
