/**
 * What the containers run. The loadlab command lines are the shard contract of issue 22:
 * `loadlab run SCENARIO --shards N …` and `loadlab plan SCENARIO --shards N …` (each pod's shard
 * index is JOB_COMPLETION_INDEX, which Kubernetes gives every pod of an Indexed Job),
 * `loadlab merge DIR… --out DIR` and `loadlab plan merge DIR… --out DIR`. Arguments stay a list
 * (no shell parses them); Kubernetes expands `$(JOB_COMPLETION_INDEX)` in them.
 *
 * A shard's own verdict is not the run's: exit 99 from a shard (its slice missed a threshold, or
 * none of its plan points met the SLOs) ends the pod successfully, and the merge Job judges the
 * merged result. Any other failure fails the pod.
 */

/** The CLI inside the image (Dockerfile: WORKDIR /app). */
export const LOADLAB_JS = '/app/bin/loadlab.js';

/** Index placeholder Kubernetes replaces in args from the container's env. */
export const INDEX = '$(JOB_COMPLETION_INDEX)';

/** `sh -c` script around a shard: `$@` is the loadlab command line. */
export const SHARD_SCRIPT = [
  `node ${LOADLAB_JS} "$@"`,
  'code=$?',
  'if [ "$code" -eq 99 ]; then echo "loadlab: exit 99 from this shard alone; the merge Job judges the merged result" >&2; exit 0; fi',
  'exit "$code"',
].join('\n');

/** `sh -c` script around a merge whose result is uploaded afterwards: keeps its exit code in the file `$LOADLAB_EXIT_FILE`. */
export const KEEP_EXIT_SCRIPT = [`node ${LOADLAB_JS} "$@"`, 'echo "$?" > "$LOADLAB_EXIT_FILE"'].join('\n');

/**
 * `sh -c` script of the AWS CLI container: copies directory $1 to $2, then exits with the code
 * kept in file $3 when one is given (the merge's: 99 when a threshold failed). Without $3 a
 * missing $1 fails; with it, a merge that wrote nothing (exit 2) uploads nothing.
 */
export const UPLOAD_SCRIPT = [
  'if [ -d "$1" ]; then aws s3 cp --recursive --only-show-errors "$1" "$2" || exit 1; elif [ -z "$3" ]; then echo "upload: $1 does not exist" >&2; exit 1; fi',
  'if [ -n "$3" ] && [ -f "$3" ]; then exit "$(cat "$3")"; fi',
].join('\n');

/** `sh -c` script of the AWS CLI container before a merge: fetches the shards' folders ($1) into $2. */
export const DOWNLOAD_SCRIPT = 'aws s3 cp --recursive --only-show-errors --exclude "merged/*" "$1" "$2"';

/** Flags passed through to every shard, in the order given. */
export type PassFlags = ReadonlyArray<readonly [flag: string, value?: string]>;

function flagArgs(flags: PassFlags): string[] {
  return flags.flatMap(([f, v]) => (v === undefined ? [`--${f}`] : [`--${f}`, v]));
}

export interface ShardRunArgs {
  scenarioPath: string;
  shards: number;
  target: string;
  startAt: string;
  outDir: string;
  flags: PassFlags;
}

/** `loadlab run` of one shard (after the `loadlab` itself). */
export function shardRunArgs(a: ShardRunArgs): string[] {
  return ['run', a.scenarioPath, '--shards', String(a.shards), '--target', a.target, '--start-at', a.startAt, ...flagArgs(a.flags), '--out', a.outDir];
}

/** `loadlab plan` of one shard of the sweep. */
export function shardPlanArgs(a: { scenarioPath: string; shards: number; outDir: string; flags: PassFlags }): string[] {
  return ['plan', a.scenarioPath, '--shards', String(a.shards), ...flagArgs(a.flags), '--out', a.outDir];
}

/** `loadlab merge` (runs) or `loadlab plan merge` (plans) of the N shard directories under `dir`. */
export function mergeArgs(mode: 'run' | 'plan', dir: string, shards: number): string[] {
  const inputs = Array.from({ length: shards }, (_, i) => `${dir}/shard-${i}`);
  return [...(mode === 'run' ? ['merge'] : ['plan', 'merge']), ...inputs, '--out', `${dir}/merged`];
}
