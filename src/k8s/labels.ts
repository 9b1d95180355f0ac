/** The recommended Kubernetes labels on every generated object (`kubectl get all -l app.kubernetes.io/instance=<base>`). */
export type Labels = Record<string, string>;

export type Component = 'scenario' | 'shards' | 'merge';

export function labelsOf(base: string, component: Component): Labels {
  return {
    'app.kubernetes.io/name': 'loadlab',
    'app.kubernetes.io/instance': base,
    'app.kubernetes.io/component': component,
  };
}
