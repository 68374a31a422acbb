/**
 * A memo of a pure function of a string, for work done again on every frame: when it holds more than
 * `limit` entries it starts again, so memory follows what is on screen, not what was.
 */
export class BoundedCache<V> {
  private readonly map = new Map<string, V>();

  constructor(private readonly limit = 4_000) {}

  get(key: string, make: (key: string) => V): V {
    let value = this.map.get(key);
    if (value === undefined) {
      if (this.map.size >= this.limit) this.map.clear();
      value = make(key);
      this.map.set(key, value);
    }
    return value;
  }
}
