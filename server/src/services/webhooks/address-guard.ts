/**
 * Webhook addresses may not reach the server's own network: an address that is, or whose
 * name resolves to, a loopback, private, link-local, shared, multicast or reserved address
 * is refused unless WEBHOOK_ALLOW_PRIVATE is set. The check runs when a webhook is saved
 * and again in the connection's own lookup at each delivery (guardedLookup), so the address
 * connected to is the address checked: a name re-pointed after saving (DNS rebinding) is
 * refused too.
 */
import dns from 'node:dns';
import net, { BlockList } from 'node:net';

const blocked = new BlockList();
for (const [address, prefix] of [
  ['0.0.0.0', 8], // "this" network
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local (cloud metadata)
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  blocked.addSubnet(address, prefix, 'ipv4');
}
for (const [address, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96], // NAT64 of any IPv4 address
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10],
  ['ff00::', 8], // multicast
] as const) {
  blocked.addSubnet(address, prefix, 'ipv6');
}

/** True for an IP address outside the public internet. */
export function isPrivateAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family !== 6) return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return blocked.check(mapped[1]!, 'ipv4');
  // IPv4-mapped in hex form (::ffff:7f00:1) and IPv4-compatible addresses.
  if (/^::ffff:[0-9a-f]{1,4}:[0-9a-f]{1,4}$/i.test(address)) return true;
  return blocked.check(address, 'ipv6');
}

export class PrivateAddressError extends Error {
  readonly code = 'WEBHOOK_PRIVATE_ADDRESS';
  constructor(readonly address: string) {
    super(`The address ${address} is in a loopback, private or link-local network`);
  }
}

/** Every address of `host` (an IP literal stands for itself). */
export async function resolveHost(host: string): Promise<string[]> {
  const bare = host.replace(/^\[|\]$/g, '');
  if (net.isIP(bare)) return [bare];
  const found = await dns.promises.lookup(bare, { all: true, verbatim: true });
  return found.map((entry) => entry.address);
}

/** Refuses (PrivateAddressError) when any address of `host` is private. */
export async function assertPublicHost(host: string): Promise<void> {
  for (const address of await resolveHost(host)) {
    if (isPrivateAddress(address)) throw new PrivateAddressError(address);
  }
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | dns.LookupAddress[],
  family?: number,
) => void;

/**
 * A `lookup` for http(s).request that resolves the name and refuses private addresses
 * unless `allowPrivate`: the connection goes to the address checked here.
 */
export function guardedLookup(allowPrivate: boolean) {
  return (hostname: string, options: dns.LookupOptions, callback: LookupCallback): void => {
    dns.lookup(hostname, { ...options, all: true, verbatim: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const list = addresses as dns.LookupAddress[];
      const refused = allowPrivate ? undefined : list.find((a) => isPrivateAddress(a.address));
      if (refused) return callback(new PrivateAddressError(refused.address), []);
      if (options.all) return callback(null, list);
      const first = list[0];
      if (!first)
        return callback(Object.assign(new Error('no address'), { code: 'ENOTFOUND' }), []);
      callback(null, first.address, first.family);
    });
  };
}
