import ipaddr from 'ipaddr.js';
import { fail, ok, type Result } from '../../core/errors/index.js';

/** Largest number of entries in `ip_allowlist`. */
export const MAX_IP_ENTRIES = 100;

type Address = ipaddr.IPv4 | ipaddr.IPv6;

function parseAddress(text: string): Address | null {
  if (text.includes('%')) return null; // zone ids name an interface of one host, never a client
  if (ipaddr.IPv4.isValidFourPartDecimal(text)) return ipaddr.IPv4.parse(text);
  if (!text.includes(':') || !ipaddr.IPv6.isValid(text)) return null;
  return ipaddr.IPv6.parse(text);
}

/** Unwraps IPv4-mapped IPv6 (`::ffff:203.0.113.9`, how dual-stack sockets report IPv4 clients). */
function canonical(address: Address): Address {
  return address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress() ? (address as ipaddr.IPv6).toIPv4Address() : address;
}

/**
 * Checks and normalises one `ip_allowlist` entry: an IPv4 or IPv6 address or a CIDR range. Ranges are
 * normalised to their network address (`203.0.113.9/24` → `203.0.113.0/24`), addresses to their short form.
 */
export function normalizeIpEntry(input: string): Result<string, 'invalid_ip'> {
  const text = input.trim().toLowerCase();
  const bad = fail('invalid_ip', `"${input.slice(0, 80)}" is not an IPv4/IPv6 address or CIDR range`);
  const slash = text.indexOf('/');
  if (slash === -1) {
    const address = parseAddress(text);
    return address ? ok(canonical(address).toString()) : bad;
  }
  const address = parseAddress(text.slice(0, slash));
  const bitsText = text.slice(slash + 1);
  if (!address || !/^\d{1,3}$/.test(bitsText)) return bad;
  const bits = Number(bitsText);
  const max = address.kind() === 'ipv4' ? 32 : 128;
  if (bits > max) return bad;
  const network = address.kind() === 'ipv4' ? ipaddr.IPv4.networkAddressFromCIDR(`${text.slice(0, slash)}/${bits}`) : ipaddr.IPv6.networkAddressFromCIDR(`${text.slice(0, slash)}/${bits}`);
  return ok(`${network.toString()}/${bits}`);
}

/** True when `ip` is in the normalised allowlist; an empty list allows any address (CONTRACT §1). */
export function ipAllowed(entries: readonly string[], ip: string): boolean {
  if (entries.length === 0) return true;
  const parsed = parseAddress(ip.toLowerCase());
  if (!parsed) return false;
  const client = canonical(parsed);
  for (const entry of entries) {
    const slash = entry.indexOf('/');
    const address = parseAddress(slash === -1 ? entry : entry.slice(0, slash));
    if (!address || address.kind() !== client.kind()) continue;
    const bits = slash === -1 ? (address.kind() === 'ipv4' ? 32 : 128) : Number(entry.slice(slash + 1));
    if (client.match(address, bits)) return true;
  }
  return false;
}
