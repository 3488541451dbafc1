/** A least-recently-used map with a budget in any unit (entries, bytes, points). */
export class Lru<V> {
  private readonly entries = new Map<string, { value: V; weight: number }>();
  private total = 0;

  constructor(
    private readonly budget: number,
    private readonly onEvict?: (key: string, value: V) => void,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  /** The total weight held. */
  get weight(): number {
    return this.total;
  }

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  has(key: string): boolean {
    return this.entries.has(key);
  }

  /** Adds (or replaces) an entry, then evicts the oldest until within budget (keeping it). */
  set(key: string, value: V, weight = 1): void {
    this.delete(key);
    this.entries.set(key, { value, weight });
    this.total += weight;
    for (const [oldKey, entry] of this.entries) {
      if (this.total <= this.budget || oldKey === key) break;
      this.entries.delete(oldKey);
      this.total -= entry.weight;
      this.onEvict?.(oldKey, entry.value);
    }
  }

  delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.total -= entry.weight;
    this.onEvict?.(key, entry.value);
  }

  clear(): void {
    for (const key of [...this.entries.keys()]) this.delete(key);
  }
}
