/** The room of comparison `id`: only for an id the server made (item-ids.ts), since addressing a room creates it. */
export const comparisonRoom = (env: Env, id: string) => env.COMPARISON_ROOM.get(env.COMPARISON_ROOM.idFromName(id));
