import type { SimEvent, SimEventListener } from '../contract/sim-events.js';

type WorkerStateEvent = Extract<SimEvent, { type: 'worker.state' }>;

/**
 * A synchronous fan-out. `active` lets hot paths skip building events nobody listens to;
 * `workersWatched` is true when someone listens to `worker.state` events, alone (onWorkerState:
 * a few per worker's life, cheap) or with every other event (on).
 */
export class EventBus {
  private listeners: SimEventListener[] = [];
  private workerListeners: ((e: WorkerStateEvent) => void)[] = [];
  active = false;
  workersWatched = false;

  on(l: SimEventListener): () => void {
    this.listeners.push(l);
    this.update();
    return () => {
      this.listeners = this.listeners.filter((x) => x !== l);
      this.update();
    };
  }

  /** Listens to `worker.state` events only: the other events stay unbuilt unless `on` asks for them. */
  onWorkerState(l: (e: WorkerStateEvent) => void): () => void {
    this.workerListeners.push(l);
    this.update();
    return () => {
      this.workerListeners = this.workerListeners.filter((x) => x !== l);
      this.update();
    };
  }

  emit(e: SimEvent): void {
    for (const l of this.listeners) l(e);
    if (e.type === 'worker.state') for (const l of this.workerListeners) l(e);
  }

  private update(): void {
    this.active = this.listeners.length > 0;
    this.workersWatched = this.active || this.workerListeners.length > 0;
  }
}
