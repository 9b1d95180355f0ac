/**
 * calibrated.yaml is written to another folder than the scenario it is made from, and a `replay`
 * arrival's `file` is relative to the scenario's folder: without this, a calibrated scenario that
 * replays a trace (`traces/azure2023_conv.csv`) would look for it beside calibrated.yaml. Each
 * relative `traffic[].arrival.file` is rewritten relative to the new folder (still relative, so a
 * repository checked out elsewhere keeps working); absolute paths stay as they are.
 */
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { type Document, isMap, isSeq } from 'yaml';

/** Rewrites the trace paths of `doc` (read from a file in `fromDir`) for a file written in `toDir`. */
export function rebaseTraceFiles(doc: Document, fromDir: string, toDir: string): void {
  const traffic = doc.get('traffic', true);
  if (!isSeq(traffic)) return;
  traffic.items.forEach((_, i) => {
    const path = ['traffic', i, 'arrival', 'file'];
    if (!isMap(doc.getIn(['traffic', i, 'arrival'], true))) return;
    const file = doc.getIn(path);
    if (typeof file !== 'string' || isAbsolute(file)) return;
    const moved = relative(resolve(toDir), resolve(fromDir, file)).split(sep).join('/');
    if (moved !== file) doc.setIn(path, moved);
  });
}
