import { crc32 } from "node:zlib";
import sharp from "sharp";

// Small media files made here for the upload tests, carrying the metadata a phone writes.

export const SECRET = "SECRET-LOCATION-47.3769N";

/** A JPEG with EXIF (orientation 6: turn right, an artist, a GPS-ish comment), XMP and an ICC profile. */
export async function jpegWithMetadata(width = 16, height = 8): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: "#c33" } })
    .jpeg()
    .withMetadata({ orientation: 6 })
    .withExifMerge({ IFD0: { Artist: SECRET, Copyright: SECRET } })
    .withIccProfile("p3")
    .withXmp(`<x:xmpmeta xmlns:x="adobe:ns:meta/">${SECRET}</x:xmpmeta>`)
    .toBuffer();
}

function pngChunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** A PNG with tEXt, iTXt and eXIf chunks inserted after IHDR. */
export async function pngWithMetadata(): Promise<Buffer> {
  const png = await sharp({ create: { width: 8, height: 8, channels: 4, background: "#3c3" } })
    .png()
    .toBuffer();
  const ihdrEnd = 8 + 4 + 4 + 13 + 4;
  const extra = Buffer.concat([
    pngChunk("tEXt", Buffer.from(`Comment\0${SECRET}`, "latin1")),
    pngChunk("iTXt", Buffer.from(`XML:com.adobe.xmp\0\0\0\0\0${SECRET}`, "latin1")),
    pngChunk(
      "eXIf",
      Buffer.concat([Buffer.from("MM\0*\0\0\0\x08", "latin1"), Buffer.from(SECRET)]),
    ),
  ]);
  return Buffer.concat([png.subarray(0, ihdrEnd), extra, png.subarray(ihdrEnd)]);
}

/** A WebP with EXIF and XMP chunks. */
export async function webpWithMetadata(): Promise<Buffer> {
  return sharp({ create: { width: 8, height: 8, channels: 3, background: "#33c" } })
    .webp()
    .withExif({ IFD0: { Artist: SECRET } })
    .withXmp(`<x:xmpmeta xmlns:x="adobe:ns:meta/">${SECRET}</x:xmpmeta>`)
    .toBuffer();
}

/** The chunk types of a PNG, in order. */
export function pngChunks(b: Buffer): string[] {
  const out: string[] = [];
  for (let at = 8; at + 8 <= b.length; ) {
    const len = b.readUInt32BE(at);
    out.push(b.toString("latin1", at + 4, at + 8));
    at += 12 + len;
  }
  return out;
}

/** The chunk ids of a WebP (RIFF) file. */
export function webpChunks(b: Buffer): string[] {
  const out: string[] = [];
  for (let at = 12; at + 8 <= b.length; ) {
    const len = b.readUInt32LE(at + 4);
    out.push(b.toString("latin1", at, at + 4));
    at += 8 + len + (len % 2);
  }
  return out;
}

/** The marker segments of a JPEG before its image data: "APP1 Exif", "APP2 ICC_PROFILE", "COM"… */
export function jpegSegments(b: Buffer): string[] {
  const out: string[] = [];
  for (let at = 2; at + 4 <= b.length; ) {
    if (b[at] !== 0xff) break;
    const marker = b[at + 1] ?? 0;
    if (marker === 0xda) break; // start of scan: image data follows
    const len = b.readUInt16BE(at + 2);
    const head = b.toString("latin1", at + 4, at + 4 + Math.min(len - 2, 12)).replace(/\0.*$/s, "");
    const name =
      marker >= 0xe0 && marker <= 0xef
        ? `APP${marker - 0xe0}`
        : marker === 0xfe
          ? "COM"
          : `0x${marker.toString(16)}`;
    out.push(`${name} ${head}`.trim());
    at += 2 + len;
  }
  return out;
}

function box(type: string, ...children: Buffer[]): Buffer {
  const body = Buffer.concat(children);
  const head = Buffer.alloc(8);
  head.writeUInt32BE(8 + body.length);
  head.write(type, 4, "latin1");
  return Buffer.concat([head, body]);
}

/**
 * A minimal MP4 laid out as a phone writes one with `moov` before `mdat` (fast start): a
 * location in `moov/udta/©xyz`, an Apple `moov/meta`, a track's own `udta`, and media bytes.
 */
export function mp4WithMetadata(brand = "isom"): { file: Buffer; media: Buffer } {
  const media = Buffer.from("MEDIA-SAMPLES-".repeat(8));
  const ftyp = box("ftyp", Buffer.from(`${brand}\0\0\x02\0isomiso2mp41`, "latin1"));
  const xyz = box("\xa9xyz", Buffer.from(`\0\x12\x15\xc7+47.3769+008.5417/${SECRET}`, "latin1"));
  const moov = box(
    "moov",
    box("mvhd", Buffer.alloc(100)),
    box("trak", box("tkhd", Buffer.alloc(84)), box("udta", box("name", Buffer.from(SECRET)))),
    box("udta", xyz),
    box(
      "meta",
      Buffer.alloc(4),
      box("keys", Buffer.from(`com.apple.quicktime.location.ISO6709${SECRET}`)),
    ),
  );
  return { file: Buffer.concat([ftyp, moov, box("mdat", media)]), media };
}
