/** Case-insensitive regular expressions from rule text, compiled once (bounded, cleared when full). */
const cache = new Map<string, RegExp>();

/** The compiled expression; throws on an invalid pattern, as `new RegExp` does. */
export function cachedRegex(pattern: string): RegExp {
  let re = cache.get(pattern);
  if (!re) {
    re = new RegExp(pattern, 'i');
    if (cache.size > 2000) cache.clear();
    cache.set(pattern, re);
  }
  return re;
}
