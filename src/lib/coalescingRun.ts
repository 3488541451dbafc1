/**
 * A piece of work that runs one at a time: triggered while it runs, it runs once more after
 * the current round instead of twice in parallel (a queue's pump: every trigger during a round
 * is seen by the next round). `stop` ends the rounds early (the owner stopped).
 */
export class CoalescingRun {
  private running: Promise<void> | null = null;
  private again = false;

  constructor(
    private readonly work: () => Promise<void>,
    private readonly stop: () => boolean = () => false,
  ) {}

  /** Starts a round, or asks the round in progress for one more; resolves when the rounds end. */
  trigger(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    const rounds = async () => {
      try {
        do {
          this.again = false;
          await this.work();
        } while (this.again && !this.stop());
      } finally {
        this.running = null;
      }
    };
    this.running = rounds();
    return this.running;
  }

  /** Resolves when no round runs (a failed round counts as ended). */
  async idle(): Promise<void> {
    while (this.running) await this.running.catch(() => undefined);
  }
}
