import { inflateRawSync } from 'node:zlib';
import { HttpError } from '../../http/errors';

/**
 * The zip-bomb guard for .xlsx uploads. SheetJS inflates every entry of the archive, to the end of
 * each deflate stream, with no output limit, and preallocates whatever size a header declares. So
 * before it sees the bytes, this walks the archive the way SheetJS does (its last end-of-central-
 * directory record, that record's entry count and directory offset, each entry's local header) and
 * inflates every entry itself with a hard output cap: declared sizes can lie, the inflated bytes
 * cannot. A real import sheet (1,000 rows of 13 short cells) is well under a megabyte unpacked.
 */
export const ZIP_LIMITS = {
  maxEntries: 200,
  maxUncompressedBytes: 50 * 1024 * 1024,
  /** Unpacked : packed, over the whole archive; checked once it unpacks beyond `ratioFloorBytes`. */
  maxCompressionRatio: 100,
  ratioFloorBytes: 1024 * 1024,
} as const;

const END_OF_CENTRAL_DIRECTORY = Buffer.from([0x50, 0x4b, 0x05, 0x06]);
const END_OF_CENTRAL_DIRECTORY_LENGTH = 22;
const CENTRAL_ENTRY_SIGNATURE = 0x02014b50;
const CENTRAL_ENTRY_LENGTH = 46;
const LOCAL_HEADER_SIGNATURE = 0x04034b50;
const LOCAL_HEADER_LENGTH = 30;
const ZIP64_EXTRA_FIELD = 0x0001;
/** General-purpose flag bits: 0 encrypted, 6 strong encryption, 13 encrypted central directory. */
const ENCRYPTION_FLAGS = 0x2041;
const STORED = 0;
const DEFLATED = 8;

const MEGABYTE = 1024 * 1024;

function damaged(): HttpError {
  return new HttpError(400, 'The .xlsx file is damaged or is not a spreadsheet', 'MALFORMED_FILE');
}

function tooLargeUnpacked(): HttpError {
  return new HttpError(
    400,
    `The .xlsx file unpacks to more than ${ZIP_LIMITS.maxUncompressedBytes / MEGABYTE} MB (or is packed over ${ZIP_LIMITS.maxCompressionRatio}:1); it is refused as a possible zip bomb`,
    'ARCHIVE_TOO_LARGE',
  );
}

/** Reads that fail past the end of the file are a damaged archive, not a server error. */
function reader(bytes: Buffer) {
  const within = (offset: number, length: number) => {
    if (offset < 0 || offset + length > bytes.length) throw damaged();
  };
  return {
    u16(offset: number) {
      within(offset, 2);
      return bytes.readUInt16LE(offset);
    },
    u32(offset: number) {
      within(offset, 4);
      return bytes.readUInt32LE(offset);
    },
    slice(offset: number, length: number) {
      within(offset, length);
      return bytes.subarray(offset, offset + length);
    },
  };
}

function hasZip64Sizes(extraField: Buffer): boolean {
  for (let offset = 0; offset + 4 <= extraField.length; offset += 4 + extraField.readUInt16LE(offset + 2)) {
    if (extraField.readUInt16LE(offset) === ZIP64_EXTRA_FIELD) return true;
  }
  return false;
}

/** Refuses an archive that is damaged, encrypted, ZIP64, or unpacks beyond ZIP_LIMITS; returns quietly otherwise. */
export function assertSafeZipArchive(bytes: Buffer): void {
  const read = reader(bytes);
  const directoryEnd = bytes.lastIndexOf(END_OF_CENTRAL_DIRECTORY);
  if (directoryEnd < 0 || directoryEnd + END_OF_CENTRAL_DIRECTORY_LENGTH > bytes.length) throw damaged();
  const entryCount = read.u16(directoryEnd + 8);
  if (entryCount === 0) throw damaged();
  if (entryCount > ZIP_LIMITS.maxEntries) {
    throw new HttpError(400, `The .xlsx file holds ${entryCount} parts, more than a spreadsheet has (at most ${ZIP_LIMITS.maxEntries})`, 'ARCHIVE_TOO_LARGE');
  }

  let declaredTotal = 0;
  let inflatedTotal = 0;
  let entryOffset = read.u32(directoryEnd + 16);
  for (let index = 0; index < entryCount; index++) {
    if (read.u32(entryOffset) !== CENTRAL_ENTRY_SIGNATURE) throw damaged();
    const centralUncompressed = read.u32(entryOffset + 24);
    const nameLength = read.u16(entryOffset + 28);
    const extraLength = read.u16(entryOffset + 30);
    const commentLength = read.u16(entryOffset + 32);
    const localOffset = read.u32(entryOffset + 42);
    const centralExtra = read.slice(entryOffset + CENTRAL_ENTRY_LENGTH + nameLength, extraLength);
    entryOffset += CENTRAL_ENTRY_LENGTH + nameLength + extraLength + commentLength;

    if (read.u32(localOffset) !== LOCAL_HEADER_SIGNATURE) throw damaged();
    const flags = read.u16(localOffset + 6);
    const method = read.u16(localOffset + 8);
    const localCompressed = read.u32(localOffset + 18);
    const localUncompressed = read.u32(localOffset + 22);
    const localExtra = read.slice(localOffset + LOCAL_HEADER_LENGTH + read.u16(localOffset + 26), read.u16(localOffset + 28));
    const dataStart = localExtra.byteOffset - bytes.byteOffset + localExtra.length;

    if (flags & ENCRYPTION_FLAGS) throw new HttpError(400, 'The .xlsx file is encrypted; save it without a password and upload it again', 'MALFORMED_FILE');
    // A 10 MB upload never needs ZIP64; its 64-bit sizes would only serve to declare absurd ones.
    if (hasZip64Sizes(centralExtra) || hasZip64Sizes(localExtra)) throw damaged();

    declaredTotal += Math.max(centralUncompressed, localUncompressed);
    if (declaredTotal > ZIP_LIMITS.maxUncompressedBytes) throw tooLargeUnpacked();

    const budget = ZIP_LIMITS.maxUncompressedBytes - inflatedTotal;
    if (method === STORED) {
      inflatedTotal += read.slice(dataStart, localCompressed).length;
    } else if (method === DEFLATED) {
      inflatedTotal += inflatedLength(bytes.subarray(dataStart), budget);
    } else {
      throw new HttpError(400, `The .xlsx file uses an unsupported compression method (${method})`, 'MALFORMED_FILE');
    }
    if (inflatedTotal > ZIP_LIMITS.maxUncompressedBytes) throw tooLargeUnpacked();
  }

  if (inflatedTotal > ZIP_LIMITS.ratioFloorBytes && inflatedTotal / bytes.length > ZIP_LIMITS.maxCompressionRatio) throw tooLargeUnpacked();
}

/** The entry's real unpacked size, inflating at most `budget` bytes (a bomb stops there, refused). */
function inflatedLength(deflated: Buffer, budget: number): number {
  try {
    return inflateRawSync(deflated, { maxOutputLength: Math.max(budget, 1) }).length;
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE') throw tooLargeUnpacked();
    throw damaged();
  }
}
