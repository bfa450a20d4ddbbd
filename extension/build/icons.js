// The extension's icons, drawn at build time (no binary files in the repository): a white speech bubble on Kit's
// blue rounded square, anti-aliased by 4×4 supersampling, written as 8-bit RGBA PNGs.
import { deflateSync } from 'node:zlib';

/** Icon sizes the manifest names. */
export const ICON_SIZES = [16, 32, 48, 128];

const BLUE = [47, 91, 234];
const WHITE = [255, 255, 255];

/** Signed distance to a rounded rectangle centred at (cx, cy) with half-size (hw, hh) and corner radius r. */
function roundedBox(x, y, cx, cy, hw, hh, r) {
  const qx = Math.abs(x - cx) - hw + r;
  const qy = Math.abs(y - cy) - hh + r;
  return Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - r;
}

/** Colour of a point in the unit square, or null when transparent. */
function shade(x, y) {
  if (roundedBox(x, y, 0.5, 0.5, 0.5, 0.5, 0.22) > 0) return null;
  const bubble = roundedBox(x, y, 0.5, 0.45, 0.3, 0.21, 0.12) <= 0;
  // The bubble's tail: a triangle under its lower left.
  const tail = y > 0.6 && y < 0.82 && x > 0.3 && x < 0.46 && (x - 0.3) < (0.82 - y) * 0.75;
  return bubble || tail ? WHITE : BLUE;
}

function crc32(bytes) {
  let c = ~0;
  for (const b of bytes) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
}

function chunk(type, data) {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'ascii');
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/** A PNG file (Buffer) of the icon at `size` × `size` pixels. */
export function iconPng(size) {
  const S = 4;
  const raw = Buffer.alloc(size * (size * 4 + 1));
  for (let py = 0; py < size; py++) {
    raw[py * (size * 4 + 1)] = 0; // filter: none
    for (let px = 0; px < size; px++) {
      let r = 0, g = 0, b = 0, a = 0;
      for (let sy = 0; sy < S; sy++) {
        for (let sx = 0; sx < S; sx++) {
          const c = shade((px + (sx + 0.5) / S) / size, (py + (sy + 0.5) / S) / size);
          if (!c) continue;
          r += c[0]; g += c[1]; b += c[2]; a++;
        }
      }
      const o = py * (size * 4 + 1) + 1 + px * 4;
      if (a > 0) {
        raw[o] = Math.round(r / a);
        raw[o + 1] = Math.round(g / a);
        raw[o + 2] = Math.round(b / a);
      }
      raw[o + 3] = Math.round((a / (S * S)) * 255);
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // RGBA
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
