// Associative arrays that list their keys in bash 5.2's order: bash keeps them in a hash
// table of 1024 buckets (FNV-1 over the key's bytes, chars sign-extended as on x86), each
// bucket a list with the newest key first, walked bucket by bucket. The table grows 4x when it
// holds twice as many keys as buckets, re-inserting old buckets in order (which reverses each
// chain). `${!a[@]}`, `${a[@]}`, `declare -p` and `for k in` all follow this walk.

const START_BUCKETS = 1024;
const GROW_FACTOR = 2;
const GROW_BY = 4;
const enc = new TextEncoder();

/** bash's hash_string: FNV-1 with 32-bit wraparound, bytes as signed chars. */
export function bashHash(key: string): number {
  let h = 2166136261;
  for (const b of enc.encode(key)) {
    h = Math.imul(h, 16777619) >>> 0;
    h = (h ^ ((b << 24) >> 24)) >>> 0;
  }
  return h;
}

/** A Map whose iteration order is bash's bucket walk; lookups stay O(1). */
export class BashAssoc extends Map<string, string> {
  private buckets: string[][] = Array.from({ length: START_BUCKETS }, () => []);
  private hashes = new Map<string, number>();

  constructor(entries?: Iterable<readonly [string, string]> | null) {
    super();
    if (entries) for (const [k, v] of entries) this.set(k, v);
  }

  override set(key: string, value: string): this {
    if (!super.has(key)) this.link(key);
    return super.set(key, value);
  }

  override delete(key: string): boolean {
    const h = this.hashes.get(key);
    if (h === undefined) return false;
    const chain = this.buckets[h & (this.buckets.length - 1)];
    chain.splice(chain.indexOf(key), 1);
    this.hashes.delete(key);
    return super.delete(key);
  }

  override clear(): void {
    this.buckets = Array.from({ length: START_BUCKETS }, () => []);
    this.hashes.clear();
    super.clear();
  }

  /** A copy with the same bucket chains (bash's hash_copy), so it lists in the same order. */
  clone(): BashAssoc {
    const c = new BashAssoc();
    c.buckets = this.buckets.map((b) => b.slice());
    c.hashes = new Map(this.hashes);
    for (const k of this.hashes.keys()) Map.prototype.set.call(c, k, super.get(k)!);
    return c;
  }

  private link(key: string): void {
    if (this.hashes.size >= this.buckets.length * GROW_FACTOR) this.grow();
    const h = bashHash(key);
    this.hashes.set(key, h);
    this.buckets[h & (this.buckets.length - 1)].unshift(key);
  }

  private grow(): void {
    const old = this.buckets;
    this.buckets = Array.from({ length: old.length * GROW_BY }, () => []);
    const mask = this.buckets.length - 1;
    for (const chain of old) for (const k of chain) this.buckets[this.hashes.get(k)! & mask].unshift(k);
  }

  override *keys(): MapIterator<string> {
    for (const chain of this.buckets) for (const k of chain) yield k;
  }

  override *values(): MapIterator<string> {
    for (const k of this.keys()) yield super.get(k)!;
  }

  override *entries(): MapIterator<[string, string]> {
    for (const k of this.keys()) yield [k, super.get(k)!];
  }

  override [Symbol.iterator](): MapIterator<[string, string]> {
    return this.entries();
  }

  override forEach(fn: (value: string, key: string, map: Map<string, string>) => void, thisArg?: unknown): void {
    for (const [k, v] of this.entries()) fn.call(thisArg, v, k, this);
  }
}
