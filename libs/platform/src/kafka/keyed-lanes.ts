/**
 * Runs `work` over `items` with up to `limit` running at once, but never two of the same key at once and
 * each key's items in their given order: a partition's messages of one aggregate key are handled one
 * after the other, in offset order, while messages of other keys overtake them. An item without a key
 * is a lane of its own. Resolves once every item ran; rejects with the first failure, after every
 * started item settled and without starting more (the caller commits no offset then, and redelivery
 * replays the lot through the command ledger).
 */
export async function runInKeyedLanes<T>(
  items: T[],
  keyOf: (item: T) => string | null,
  limit: number,
  work: (item: T) => Promise<unknown>,
): Promise<void> {
  const lanes: T[][] = [];
  const laneOfKey = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    let lane = key === null ? undefined : laneOfKey.get(key);
    if (!lane) {
      lane = [];
      lanes.push(lane);
      if (key !== null) laneOfKey.set(key, lane);
    }
    lane.push(item);
  }
  let next = 0;
  let failure: { error: unknown } | undefined;
  const runner = async () => {
    while (!failure && next < lanes.length) {
      const lane = lanes[next++];
      for (const item of lane) {
        if (failure) return;
        try {
          await work(item);
        } catch (error) {
          failure ??= { error };
          return;
        }
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, lanes.length)) }, runner));
  if (failure) throw failure.error;
}
