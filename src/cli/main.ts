/**
 * The `loadlab` command line. Each command is one module under commands/ (listed in
 * commands/catalog.ts), and only the one named on the command line is loaded: the others are
 * registered by their usage line and description alone, enough for `loadlab --help`. Exit codes
 * follow exit-codes.ts, which maps every LoadlabError's code to one.
 */
import { readFileSync } from 'node:fs';
import yargs, { type Argv, type CommandModule } from 'yargs';
import { COMMANDS, type CommandName } from './commands/catalog.js';
import { InternalError, LoadlabError } from '../contract/loadlab-error.js';
import { CliError, EXIT, exitCodeOfError } from './exit-codes.js';

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

/** A command's module, whatever its arguments' type (each command types its own). */
// biome-ignore lint/suspicious/noExplicitAny: a table of commands with different argument types
type AnyCommand = CommandModule<object, any>;

/** Loads a command's module (and what it imports). */
const LOAD_COMMAND: Record<CommandName, () => Promise<AnyCommand>> = {
  run: async () => (await import('./commands/run.js')).runCommandModule,
  blast: async () => (await import('./commands/blast.js')).blastCommandModule,
  serve: async () => (await import('./commands/serve.js')).serveCommand,
  report: async () => (await import('./commands/report.js')).reportCommandModule,
  compare: async () => (await import('./commands/compare.js')).compareCommandModule,
  plan: async () => (await import('./commands/plan.js')).planCommandModule,
  calibrate: async () => (await import('./commands/calibrate.js')).calibrateCommandModule,
  merge: async () => (await import('./commands/merge.js')).mergeCommandModule,
  k8s: async () => (await import('./commands/k8s.js')).k8sCommandModule,
};

/**
 * The command named first on the command line gets its whole module (options, handler); every
 * other one its usage line only. No option comes before a command (all options are a command's).
 */
async function registerCommands(cli: Argv, argv: string[]): Promise<void> {
  const named = argv.find((a) => !a.startsWith('-'));
  for (const name of Object.keys(COMMANDS) as CommandName[]) {
    if (name === named) cli.command(await LOAD_COMMAND[name]());
    else cli.command(COMMANDS[name].command, COMMANDS[name].describe);
  }
}

/**
 * yargs builds the whole help text of a command every time the command runs (to show it if the
 * handler fails later): ~0.15 s of CPU for `run`'s long option descriptions, a tenth of a short
 * HTTP run's. Errors here never print help (`fail` throws), so that text is never used: skipped
 * (`--help` builds its own). An internal of yargs: without it, nothing changes but the cost.
 */
function skipHelpCache(cli: Argv): void {
  const internal = (cli as unknown as { getInternalMethods?: () => { getUsageInstance?: () => { cacheHelpMessage?: () => void } } }).getInternalMethods?.();
  const usage = internal?.getUsageInstance?.();
  if (usage && typeof usage.cacheHelpMessage === 'function') usage.cacheHelpMessage = () => undefined;
}

export async function main(argv: string[]): Promise<number> {
  let exitCode: number = EXIT.OK;
  const cli = yargs(argv);
  skipHelpCache(cli);
  cli.scriptName('loadlab').usage('$0 <command> [options]\n\nDeterministic load testing and simulation of serverless endpoint job APIs (RunPod-style v2).');
  await registerCommands(cli, argv);
  cli
    .demandCommand(1, 'Name a command (see --help).')
    .strict()
    .version(version())
    .help()
    .alias('h', 'help')
    .epilog(
      'Exit codes: 0 success, 1 runtime error or invalid run, 2 bad usage or invalid config, 99 a threshold failed (compare: a regression beyond --fail-on-regression), 130 run interrupted (Ctrl-C).',
    )
    .fail((msg, err) => {
      throw err ?? new CliError(msg ?? 'bad usage', EXIT.USAGE);
    })
    .exitProcess(false);
  try {
    await cli.parseAsync();
  } catch (e) {
    // A LoadlabError says what went wrong in its message; anything else (a bug, an internal
    // invariant) shows its stack, to be reported.
    const told = e instanceof LoadlabError && !(e instanceof InternalError);
    process.stderr.write(`loadlab: ${told ? e.message : ((e as Error).stack ?? String(e))}\n`);
    exitCode = exitCodeOfError(e);
  }
  return exitCode;
}
