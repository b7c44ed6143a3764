// Removes the metadata an MP4 or QuickTime (.mov) file carries about where and on what it was
// recorded — the user-data (`udta`) and `meta` boxes of the movie and its tracks (a phone
// puts the GPS position there, e.g. `©xyz` or com.apple.quicktime.location.ISO6709) and an
// XMP `uuid` box — without touching the media. Each such box keeps its size and becomes a
// `free` box (which every player skips) with its contents zeroed: nothing moves, so the
// sample offsets in `stco`/`co64` stay right and no re-encoding is needed.

const XMP_UUID = "be7acfcb97a942e89c71999491e3afac";
/** Boxes whose children are walked. */
const CONTAINERS = new Set(["moov", "trak"]);
/** Boxes that hold metadata, wherever they sit in the walked containers (or at the top). */
const METADATA = new Set(["udta", "meta"]);

export class Mp4FormatError extends Error {}

type Box = { type: string; start: number; headerSize: number; end: number };

function* boxes(buf: Buffer, from: number, to: number): Generator<Box> {
  let at = from;
  while (at < to) {
    if (to - at < 8) throw new Mp4FormatError("truncated box header");
    let size = buf.readUInt32BE(at);
    const type = buf.toString("latin1", at + 4, at + 8);
    let headerSize = 8;
    if (size === 1) {
      if (to - at < 16) throw new Mp4FormatError("truncated 64-bit box header");
      const large = buf.readBigUInt64BE(at + 8);
      if (large > BigInt(Number.MAX_SAFE_INTEGER)) throw new Mp4FormatError("box too large");
      size = Number(large);
      headerSize = 16;
    } else if (size === 0) {
      size = to - at; // the box runs to the end of its parent
    }
    if (size < headerSize || at + size > to) throw new Mp4FormatError(`box '${type}' overruns`);
    yield { type, start: at, headerSize, end: at + size };
    at += size;
  }
}

function blank(buf: Buffer, box: Box): void {
  buf.write("free", box.start + 4, "latin1");
  buf.fill(0, box.start + box.headerSize, box.end);
}

function walk(buf: Buffer, from: number, to: number, top: boolean): number {
  let removed = 0;
  for (const box of boxes(buf, from, to)) {
    const isXmp =
      top &&
      box.type === "uuid" &&
      buf.toString("hex", box.start + box.headerSize, box.start + box.headerSize + 16) === XMP_UUID;
    if (METADATA.has(box.type) || isXmp) {
      blank(buf, box);
      removed++;
    } else if (CONTAINERS.has(box.type)) {
      removed += walk(buf, box.start + box.headerSize, box.end, false);
    }
  }
  return removed;
}

/**
 * A copy of the file with its metadata boxes blanked, and how many were. Throws
 * Mp4FormatError when the box structure is not well formed (the upload is then refused).
 */
export function stripMp4Metadata(input: Uint8Array): { bytes: Buffer; removed: number } {
  const buf = Buffer.from(input); // a copy: the caller's bytes stay as they were
  const removed = walk(buf, 0, buf.length, true);
  return { bytes: buf, removed };
}
