// A one-line progress bar on stderr (redrawn in place on a terminal, printed every
// ~10 % otherwise so logs stay short).
export class ProgressBar {
  private started = Date.now();
  private lastPrinted = -1;
  constructor(
    private label: string,
    private total: number,
    private out: NodeJS.WriteStream = process.stderr,
  ) {}

  update(done: number, extra = ""): void {
    const frac = Math.min(1, done / this.total);
    const elapsed = (Date.now() - this.started) / 1000;
    const eta = frac > 0 ? (elapsed * (1 - frac)) / frac : 0;
    const width = 30;
    const filled = Math.round(frac * width);
    const line = `${this.label} [${"#".repeat(filled)}${".".repeat(width - filled)}] ${(frac * 100).toFixed(0).padStart(3)}% ${done}/${this.total} ${elapsed.toFixed(0)}s eta ${eta.toFixed(0)}s ${extra}`;
    if (this.out.isTTY) this.out.write(`\r${line}\x1b[K`);
    else {
      const decile = Math.floor(frac * 10);
      if (decile !== this.lastPrinted) {
        this.lastPrinted = decile;
        this.out.write(line + "\n");
      }
    }
  }

  finish(extra = ""): void {
    this.update(this.total, extra);
    if (this.out.isTTY) this.out.write("\n");
  }
}
