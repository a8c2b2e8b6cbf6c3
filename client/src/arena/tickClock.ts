// Turns server ticks into local times. Arrival times jitter with the network, tick numbers do
// not; anchoring ticks to the least-delayed arrival seen gives evenly spaced snapshot times.
export class TickClock {
  private offset: number | null = null;

  constructor(private readonly tickMs: number) {}

  localTime(tick: number, arrivedAt: number): number {
    const candidate = arrivedAt - tick * this.tickMs;
    if (this.offset === null || candidate < this.offset) this.offset = candidate;
    return tick * this.tickMs + this.offset;
  }
}
