import type { SimEvent, SimEventListener } from '../contract/sim-events.js';

/** A synchronous fan-out. `active` lets hot paths skip building events nobody listens to. */
export class EventBus {
  private listeners: SimEventListener[] = [];
  active = false;

  on(l: SimEventListener): () => void {
    this.listeners.push(l);
    this.active = true;
    return () => {
      this.listeners = this.listeners.filter((x) => x !== l);
      this.active = this.listeners.length > 0;
    };
  }

  emit(e: SimEvent): void {
    for (const l of this.listeners) l(e);
  }
}
