/** Wakes every waiter at once; consumers wait here for new records, a rebalance or a stop. */
export class Signal {
  private waiters: (() => void)[] = [];

  /** `also`: a signal whose waiters every notify of this one wakes too. */
  constructor(private readonly also?: Signal) {}

  wait(timeoutMs: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, timeoutMs);
      const waiters = this.waiters;
      function done(): void {
        clearTimeout(timer);
        resolve();
      }
      waiters.push(done);
    });
  }

  notify(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
    this.also?.notify();
  }
}
