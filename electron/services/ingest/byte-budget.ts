/**
 * Bytes of files held in memory at once during an ingestion (issue 16 item 5). Many small files
 * are read and extracted side by side, so their stores can share a commit; large files take the
 * budget for themselves, so memory does not grow with the number of files in flight. A file over
 * the whole budget waits until nothing else holds any, then goes alone.
 */
export class ByteBudget {
  private readonly limit: number;
  private held = 0;
  private readonly waiting: { bytes: number; go: () => void }[] = [];

  constructor(limit: number) {
    this.limit = Math.max(1, limit);
  }

  /** Resolves once `bytes` may be held; pair with release(bytes). */
  async acquire(bytes: number): Promise<void> {
    if (this.waiting.length === 0 && this.fits(bytes)) {
      this.held += bytes;
      return;
    }
    await new Promise<void>((go) => this.waiting.push({ bytes, go }));
  }

  release(bytes: number): void {
    this.held = Math.max(0, this.held - bytes);
    // First come, first served: a large file is not overtaken for ever by small ones.
    while (this.waiting.length > 0 && this.fits(this.waiting[0]?.bytes ?? 0)) {
      const next = this.waiting.shift() as { bytes: number; go: () => void };
      this.held += next.bytes;
      next.go();
    }
  }

  private fits(bytes: number): boolean {
    return this.held === 0 || this.held + bytes <= this.limit;
  }
}
