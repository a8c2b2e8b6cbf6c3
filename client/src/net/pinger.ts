// Measures round-trip time: one Ping a second, RTT from the echoed clock in Pong.
export const PING_INTERVAL_MS = 1000;

export class Pinger {
  private timer: ReturnType<typeof setInterval> | null = null;
  rttMs: number | null = null;

  constructor(private readonly sendPing: (clientTimeMs: number) => void) {}

  start(): void {
    this.stop();
    this.sendPing(Date.now());
    this.timer = setInterval(() => this.sendPing(Date.now()), PING_INTERVAL_MS);
  }

  stop(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
  }

  onPong(clientTimeMs: number): number {
    this.rttMs = Math.max(0, Date.now() - clientTimeMs);
    return this.rttMs;
  }
}
