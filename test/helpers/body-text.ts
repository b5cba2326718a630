/**
 * A response's body as text, decoded from its bytes: workerd warns on `.text()` of a body whose type isn't
 * text (NDJSON's application/x-ndjson, say), though the body is UTF-8 text.
 */
export async function bodyText(res: { arrayBuffer(): Promise<ArrayBuffer> }): Promise<string> {
  return new TextDecoder().decode(await res.arrayBuffer());
}
