import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { crc32, deflateSync } from 'node:zlib';

/** A real photo: the seed's. */
export const JPEG = await readFile(new URL('../../api/seed/images/salah-ball.jpg', import.meta.url));

/** A real 1x1 PNG, built chunk by chunk (type sniffing reads the chunk headers). */
export const PNG = (() => {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(typed));
    return Buffer.concat([length, typed, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(1, 0); // width
  header.writeUInt32BE(1, 4); // height
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.from([0, 0xc0, 0xff, 0xee]))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
})();

/** The start of an MP4 (an ISO base media `ftyp` box, brand isom), padded: what type sniffing sees. */
export const MP4 = Buffer.concat([
  Buffer.from([0, 0, 0, 0x20]),
  Buffer.from('ftypisom', 'latin1'),
  Buffer.from([0, 0, 2, 0]),
  Buffer.from('isomiso2avc1mp41', 'latin1'),
  Buffer.from([0, 0, 0, 8]),
  Buffer.from('free', 'latin1'),
  Buffer.alloc(2048, 0x11),
]);

/** An HTML page, as an attacker would name it photo.png. */
export const HTML = Buffer.from('<!doctype html><html><body><script>alert(document.cookie)</script></body></html>\n');

/** The ETag S3 gives a single PUT of these bytes. */
export function md5Etag(bytes: Uint8Array): string {
  return `"${createHash('md5').update(bytes).digest('hex')}"`;
}
