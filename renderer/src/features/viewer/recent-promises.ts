/**
 * Promises kept by key, at most `keep` of them, the least recently used dropped first; a promise
 * that fails is dropped, so the next look asks again.
 */
export function recentPromises<K, V>(keep: number) {
  const cache = new Map<K, Promise<V>>();
  return {
    get(key: K, load: () => Promise<V>): Promise<V> {
      const hit = cache.get(key);
      if (hit) {
        cache.delete(key);
        cache.set(key, hit);
        return hit;
      }
      const p = load();
      p.catch(() => cache.get(key) === p && cache.delete(key));
      cache.set(key, p);
      while (cache.size > keep) cache.delete(cache.keys().next().value as K);
      return p;
    },
    forget(which: (key: K) => boolean): void {
      for (const key of [...cache.keys()]) if (which(key)) cache.delete(key);
    },
  };
}
