/** Wakes every waiter at once; consumers wait here for new records, a rebalance or a stop. */
export class Signal {
  private waiters: (() => void)[] = [];

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
  }
}
