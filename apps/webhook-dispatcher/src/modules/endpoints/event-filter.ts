/**
 * Which events an endpoint receives: its `event_names` filter holds exact dotted names and prefix
 * wildcards (`acquiring.payment_intent.*` matches every name under `acquiring.payment_intent.`; `*`
 * matches all). An empty filter means every event. One function, used by the fan-out, so what the API
 * accepts (WEBHOOK_EVENT_FILTER_PATTERN) and what is delivered cannot drift apart.
 */
export function matchesEventFilter(filters: readonly string[], eventName: string): boolean {
  if (filters.length === 0) return true;
  return filters.some((filter) => {
    if (filter === '*') return true;
    if (filter.endsWith('.*')) return eventName.startsWith(filter.slice(0, -1));
    return filter === eventName;
  });
}
