/**
 * Identical requests in flight made once: the first caller of a key starts the task, every caller
 * asking for the same key before it settles gets the same outcome. Nothing is kept once the task
 * settles (this is not a cache: a request that starts after the answer arrived is sent again).
 *
 * The key must hold everything that decides the answer, the caller's identity first: the upstream
 * client keys on the hash of the forwarded credentials (or its own client id) and the URL, the
 * gateway on the caller's `authorization` header, the subgraph URL and the request body. Two
 * callers who may see different things never share a key.
 *
 * `own(err)`: a failure that belongs to the first caller rather than to the request (its call
 * budget or its deadline ran out). A joiner does not inherit it: it runs the task itself.
 * `copy(value)`: what a joiner gets of the first caller's answer (its own copy, when callers may
 * change what they receive).
 */
export class InFlight<T> {
  private readonly pending = new Map<string, Promise<T>>();
  /** tasks started, and callers served by a task another caller had started */
  readonly counts = { started: 0, joined: 0 };

  constructor(
    private readonly own: (err: unknown) => boolean = () => false,
    private readonly copy: (value: T) => T = (value) => value,
  ) {}

  run(key: string, task: () => Promise<T>): Promise<T> {
    const running = this.pending.get(key);
    if (running !== undefined) {
      this.counts.joined++;
      return running.then(this.copy, (err) => {
        if (this.own(err)) return task();
        throw err;
      });
    }
    this.counts.started++;
    const started = task().finally(() => {
      if (this.pending.get(key) === started) this.pending.delete(key);
    });
    this.pending.set(key, started);
    return started;
  }

  /**
   * After a write: the reads in flight may have started before it and answer what it replaced, so
   * no caller joins them any more (their own callers still get their answers). A write calls this
   * when it starts and when it ends, so that a read asked after a write never gets an older answer.
   */
  forget(): void {
    this.pending.clear();
  }

  /** keys in flight now */
  get size(): number {
    return this.pending.size;
  }
}
