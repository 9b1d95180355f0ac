/**
 * Validation against the Kubernetes OpenAPI schema, through kubernetes-models' generated
 * validators: types, required fields, formats (names, quantities). Returns the problems found.
 */
import { Job } from 'kubernetes-models/batch/v1/Job';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';

export function schemaProblems(obj: { kind?: string }): string[] {
  const model = obj.kind === 'Job' ? new Job(obj as never) : obj.kind === 'ConfigMap' ? new ConfigMap(obj as never) : undefined;
  if (!model) return [`no schema for kind ${String(obj.kind)}`];
  try {
    model.validate();
    return [];
  } catch (e) {
    const errors = (e as { errors?: Array<{ instancePath: string; message?: string }> }).errors;
    return errors?.map((x) => `${x.instancePath} ${x.message ?? ''}`) ?? [String(e)];
  }
}
