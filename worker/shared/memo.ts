/** What a Map and a WeakMap have in common: enough to cache a value under a key. */
export interface KeyedStore<K, V> {
  get(key: K): V | undefined;
  set(key: K, value: V): unknown;
}

/** The value stored under `key`, made by `make` and stored on first use. */
export function cached<K, V>(store: KeyedStore<K, V>, key: K, make: (key: K) => V): V {
  const found = store.get(key);
  if (found !== undefined) return found;
  const made = make(key);
  store.set(key, made);
  return made;
}

/** Numbers keys 0, 1, 2, … in the order they are first seen: the dense indices the rating solvers take. */
export function denseIndex<K>(index: Map<K, number>, key: K): number {
  return cached(index, key, () => index.size);
}
