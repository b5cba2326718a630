/** Money set aside for a request a room accepted (api/spend.ts): kept on the record, settled once its work ends. */
export function takeHold(record: { holds: string[] }, holdId: string | undefined): void {
  if (holdId) record.holds.push(holdId);
}
