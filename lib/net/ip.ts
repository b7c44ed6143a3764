import { isIP } from "node:net";

// Which IP addresses an outbound request may reach: public unicast only. IPv4 is checked
// against a list of special-purpose ranges; IPv6 is allowed only inside global unicast
// (2000::/3) minus its special ranges, and addresses that embed an IPv4 address
// (IPv4-mapped, IPv4-compatible, 6to4) are judged by that IPv4 address.

type Range = { base: number; bits: number; why: string };

const v4 = (cidr: string, why: string): Range => {
  const [addr, bits] = cidr.split("/") as [string, string];
  return { base: ipv4ToInt(addr) ?? 0, bits: Number(bits), why };
};

const blockedV4: Range[] = [
  v4("0.0.0.0/8", "unspecified"),
  v4("10.0.0.0/8", "private"),
  v4("100.64.0.0/10", "carrier-grade NAT"),
  v4("127.0.0.0/8", "loopback"),
  v4("169.254.0.0/16", "link-local / cloud metadata"),
  v4("172.16.0.0/12", "private"),
  v4("192.0.0.0/24", "IETF protocol assignments"),
  v4("192.0.2.0/24", "documentation"),
  v4("192.88.99.0/24", "6to4 relay"),
  v4("192.168.0.0/16", "private"),
  v4("198.18.0.0/15", "benchmarking"),
  v4("198.51.100.0/24", "documentation"),
  v4("203.0.113.0/24", "documentation"),
  v4("224.0.0.0/4", "multicast"),
  v4("240.0.0.0/4", "reserved / broadcast"),
  // Public addresses that answer as a cloud's metadata or host agent.
  v4("168.63.129.16/32", "cloud metadata"),
];

function ipv4ToInt(address: string): number | undefined {
  const parts = address.split(".");
  if (parts.length !== 4) return undefined;
  let n = 0;
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p)) return undefined;
    const b = Number(p);
    if (b > 255) return undefined;
    n = n * 256 + b;
  }
  return n;
}

function inRange(n: number, r: Range): boolean {
  if (r.bits === 0) return true;
  const size = 2 ** (32 - r.bits);
  return Math.floor(n / size) === Math.floor(r.base / size);
}

function ipv4Reason(address: string): string | undefined {
  const n = ipv4ToInt(address);
  if (n === undefined) return "not an IPv4 address";
  return blockedV4.find((r) => inRange(n, r))?.why;
}

/** 16 bytes of an IPv6 address (with an optional dotted IPv4 tail), or undefined. */
function ipv6Bytes(address: string): number[] | undefined {
  let text = address.toLowerCase();
  const zone = text.indexOf("%");
  if (zone >= 0) text = text.slice(0, zone);
  let tail: number[] = [];
  const lastColon = text.lastIndexOf(":");
  if (text.slice(lastColon + 1).includes(".")) {
    const n = ipv4ToInt(text.slice(lastColon + 1));
    if (n === undefined) return undefined;
    tail = [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
    text = `${text.slice(0, lastColon + 1)}0:0`;
  }
  const halves = text.split("::");
  if (halves.length > 2) return undefined;
  const groups = (s: string) => (s === "" ? [] : s.split(":"));
  const head = groups(halves[0] ?? "");
  const rest = halves.length === 2 ? groups(halves[1] ?? "") : [];
  const fill = 8 - head.length - rest.length;
  if (halves.length === 1 ? head.length !== 8 : fill < 0) return undefined;
  const all = [...head, ...Array<string>(halves.length === 2 ? fill : 0).fill("0"), ...rest];
  const bytes: number[] = [];
  for (const g of all) {
    if (!/^[0-9a-f]{1,4}$/.test(g)) return undefined;
    const v = Number.parseInt(g, 16);
    bytes.push(v >>> 8, v & 255);
  }
  if (tail.length) bytes.splice(12, 4, ...tail);
  return bytes;
}

const dotted = (b: number[]) => b.join(".");

function ipv6Reason(address: string): string | undefined {
  const b = ipv6Bytes(address);
  if (!b) return "not an IPv6 address";
  const zeros = (from: number, to: number) => b.slice(from, to).every((x) => x === 0);
  // ::ffff:a.b.c.d (IPv4-mapped) and ::a.b.c.d (IPv4-compatible, deprecated): the IPv4 decides.
  if (zeros(0, 10) && b[10] === 0xff && b[11] === 0xff) return ipv4Reason(dotted(b.slice(12)));
  if (zeros(0, 12)) {
    if (zeros(12, 16)) return "unspecified";
    if (zeros(12, 15) && b[15] === 1) return "loopback";
    return ipv4Reason(dotted(b.slice(12))) ?? "IPv4-compatible";
  }
  const first = b[0] ?? 0;
  if (first === 0xff) return "multicast";
  if (first === 0xfe && ((b[1] ?? 0) & 0xc0) === 0x80) return "link-local";
  if (first === 0xfe && ((b[1] ?? 0) & 0xc0) === 0xc0) return "site-local";
  if ((first & 0xfe) === 0xfc) return "unique local (private)";
  if ((first & 0xe0) !== 0x20) return "not global unicast";
  // Inside 2000::/3:
  if (first === 0x20 && b[1] === 0x01) {
    if (b[2] === 0x0d && b[3] === 0xb8) return "documentation";
    // 2001::/23 IETF protocol assignments, Teredo (2001::/32) included.
    if (b[2] === 0x00 && ((b[3] ?? 0) & 0xfe) === 0x00) return "IETF protocol assignments";
  }
  if (first === 0x20 && b[1] === 0x02) return ipv4Reason(dotted(b.slice(2, 6))); // 6to4
  return undefined;
}

/**
 * Why an outbound request must not reach this address (e.g. "loopback", "private"), or
 * undefined for a public unicast address. Anything that is not an IP address is refused.
 */
export function blockedAddressReason(address: string): string | undefined {
  const family = isIP(address.includes("%") ? address.slice(0, address.indexOf("%")) : address);
  if (family === 4) return ipv4Reason(address);
  if (family === 6) return ipv6Reason(address);
  return "not an IP address";
}
