// Single flight: identical reads that overlap share one upstream call. The first caller starts it; the others
// wait for the same promise. A change that touches a flight's tags detaches it, so that nobody who asks after
// the change gets the answer of a call that started before it.

export interface Flight<T> {
  promise: Promise<T>;
  /** Set when a change touched this flight's tags while it ran: its answer must not be cached. */
  detached: boolean;
}

export class SingleFlight {
  private readonly flights = new Map<string, { flight: Flight<unknown>; tags: readonly string[] }>();

  /** Joins the flight for `key`, or starts `load` as a new one. */
  run<T>(key: string, tags: readonly string[], load: (flight: Flight<T>) => Promise<T>): Promise<T> {
    const current = this.flights.get(key);
    if (current) return current.flight.promise as Promise<T>;
    const flight = { detached: false } as Flight<T>;
    const record = { flight: flight as Flight<unknown>, tags };
    flight.promise = (async () => {
      try {
        return await load(flight);
      } finally {
        if (this.flights.get(key) === record) this.flights.delete(key);
      }
    })();
    this.flights.set(key, record);
    return flight.promise;
  }

  /** Detaches every flight carrying one of the tags: it finishes for those already waiting, and is cached by no one. */
  detach(tags: readonly string[]): void {
    const touched = new Set(tags);
    for (const [key, record] of this.flights) {
      if (record.tags.some((tag) => touched.has(tag))) {
        record.flight.detached = true;
        this.flights.delete(key);
      }
    }
  }

  /** Calls in flight (tests, diagnostics). */
  size(): number {
    return this.flights.size;
  }
}
