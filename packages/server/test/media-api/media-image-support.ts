import sharp from 'sharp';
import type { TestServer } from '../support/test-server.js';

/** Band colours of `bandedJpeg`, left to right. */
export const BANDS = [
  { r: 255, g: 0, b: 0 },
  { r: 0, g: 255, b: 0 },
  { r: 0, g: 0, b: 255 },
  { r: 255, g: 255, b: 255 },
] as const;

/** A `width`×`height` image of four vertical bands (red, green, blue, white), as PNG (lossless colours). */
export async function bandedPng(width = 400, height = 100): Promise<Buffer> {
  const band = Math.floor(width / BANDS.length);
  const raw = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const colour = BANDS[Math.min(BANDS.length - 1, Math.floor(x / band))] as (typeof BANDS)[number];
      raw.set([colour.r, colour.g, colour.b], (y * width + x) * 3);
    }
  }
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
}

/** A plain JPEG photo stand-in of the given size. */
export function plainJpeg(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 90, g: 140, b: 200 } } })
    .jpeg({ quality: 85 })
    .toBuffer();
}

/** An image answer: status, headers, bytes, and the JSON body of an error. */
export interface ImageResponse {
  status: number;
  headers: Headers;
  bytes: Buffer;
  body: any;
}

/** `GET /api/v1/media/{id}/image?...` with no routing headers, as an `<img src>` would (a key only when given). */
export async function fetchImage(
  t: TestServer,
  id: string,
  query: Record<string, string | number>,
  options: { key?: string | null; headers?: Record<string, string> } = {},
): Promise<ImageResponse> {
  const search = new URLSearchParams(
    Object.entries(query).map(([name, value]): [string, string] => [name, String(value)]),
  );
  const key = options.key === undefined ? t.adminKey : options.key;
  const response = await fetch(`${t.url}/api/v1/media/${id}/image?${search}`, {
    headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...options.headers },
  });
  const bytes = Buffer.from(await response.arrayBuffer());
  const isJson = response.headers.get('content-type')?.includes('application/json');
  return {
    status: response.status,
    headers: response.headers,
    bytes,
    body: isJson ? JSON.parse(bytes.toString()) : null,
  };
}

/** The colour at (x, y) of an encoded image. */
export async function pixelAt(bytes: Buffer, x: number, y: number): Promise<{ r: number; g: number; b: number }> {
  const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const offset = (y * info.width + x) * info.channels;
  return { r: data[offset] as number, g: data[offset + 1] as number, b: data[offset + 2] as number };
}

/** Which band colour `colour` is nearest to (lossy encoders shift colours a little). */
export function nearestBand(colour: { r: number; g: number; b: number }): number {
  const distances = BANDS.map(
    (band) => Math.abs(band.r - colour.r) + Math.abs(band.g - colour.g) + Math.abs(band.b - colour.b),
  );
  return distances.indexOf(Math.min(...distances));
}

/** CRC-32 of PNG chunks (ISO 3309), written out so the tests run on every Node 20. */
function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * A decompression bomb: a PNG of a few dozen bytes whose header claims `width`×`height` pixels
 * (its pixel data is missing, so only a decoder that trusts the header pays for it).
 */
export function pngBomb(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, deflate, no filter, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', Buffer.from([0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01])),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}
