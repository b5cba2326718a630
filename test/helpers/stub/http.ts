/** Small HTTP helpers for the stub: bodies, JSON replies, SSE frames, waits that end when the client leaves. */
import type { IncomingMessage, ServerResponse } from "node:http";

export async function readJson(req: IncomingMessage): Promise<unknown> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  const text = Buffer.concat(parts).toString("utf8");
  return text === "" ? null : JSON.parse(text);
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

/** Settles when the client closes the connection before the response is complete. */
export function whenGone(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => res.once("close", () => resolve()));
}

/** Waits `ms`; false when the client left first. */
export function pause(ms: number, gone: Promise<void>): Promise<boolean> {
  if (ms <= 0) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(true), ms);
    void gone.then(() => {
      clearTimeout(timer);
      resolve(false);
    });
  });
}

/** Splits text into pieces of a few words each, keeping the spaces, so it streams in several deltas. */
export function chunkText(text: string, wordsPerChunk = 3): string[] {
  const words = text.match(/\S+\s*/g) ?? [text];
  const chunks: string[] = [];
  for (let i = 0; i < words.length; i += wordsPerChunk) chunks.push(words.slice(i, i + wordsPerChunk).join(""));
  if (chunks.length === 1 && text.length > 1) {
    const mid = Math.ceil(text.length / 2);
    return [text.slice(0, mid), text.slice(mid)];
  }
  return chunks;
}

export const sseData = (data: unknown) => `data: ${JSON.stringify(data)}\n\n`;
export const sseEvent = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

/** A streamed reply: frames before the content, one frame per content chunk, frames after. */
export interface Frames {
  head: string[];
  chunks: string[];
  tail: string[];
  /** the vendor's in-stream error event */
  error: string;
}

export interface StreamOptions {
  chunkDelayMs: number;
  breakAfterChunks?: number;
  errorAfterChunks?: number;
  endAfterChunks?: number;
}

export async function writeFrames(res: ServerResponse, frames: Frames, opts: StreamOptions, gone: Promise<void>) {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  res.flushHeaders();
  await write(res, frames.head.join(""));
  for (let i = 0; i <= frames.chunks.length; i++) {
    // Breaking only after the earlier frames reached the socket makes the client see them first.
    if (i === opts.breakAfterChunks) return void res.socket?.destroy();
    if (i === opts.errorAfterChunks) return void res.end(frames.error);
    if (i === opts.endAfterChunks) return void res.end();
    if (i === frames.chunks.length) break;
    if (i > 0 && !(await pause(opts.chunkDelayMs, gone))) return;
    await write(res, frames.chunks[i]);
  }
  res.end(frames.tail.join(""));
}

function write(res: ServerResponse, data: string): Promise<void> {
  return new Promise((resolve) => res.write(data, () => resolve()));
}
