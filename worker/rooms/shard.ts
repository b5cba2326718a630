/** Spreading keys over a fixed set of Durable Objects (rate limiters, vote writers). */

/** The name of the shard `key` falls in, of `shards`: FNV-1a of the key, modulo `shards`. */
export function shardName(key: string, shards: number): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  return `shard:${(hash >>> 0) % shards}`;
}
