// "The page says when it is behind": the spectator pages show a notice when the connection cannot keep
// up (SpriteSession's onBehind) and hide it again once that has not happened for a while. Timing only;
// the view owns the element.
// Long enough to read, short enough that a single hiccup does not stay on screen.
export const BEHIND_NOTICE_MS = 5000;

export class BehindNotice {
  showing = false;
  events = 0; // how often we fell behind
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly onChange: (showing: boolean) => void, private readonly holdMs = BEHIND_NOTICE_MS) {}

  // Shows the notice (again), hidden holdMs after the last call.
  note(): void {
    this.events++;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.showing = false;
      this.onChange(false);
    }, this.holdMs);
    if (this.showing) return;
    this.showing = true;
    this.onChange(true);
  }

  destroy(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }
}
