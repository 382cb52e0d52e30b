import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * The target URL rules (SPEC "Destination restrictions", DESIGN §6 "Webhooks"): https
 * only, port 80 or 443, a domain name (never an IP literal, in any notation) that
 * resolves only to public addresses. `vetTarget` returns the address that was checked,
 * and the sender connects to exactly that address, so a second DNS answer (rebinding)
 * can never steer a delivery inside.
 */

/** A target refused by the rules; the message says why (it ends up in a 400 or the log). */
export class TargetRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TargetRefusedError';
  }
}

/** The name has no address right now (it may have one later). */
export class UnresolvedHostError extends TargetRefusedError {
  constructor(hostname: string) {
    super(`host "${hostname}" does not resolve`);
    this.name = 'UnresolvedHostError';
  }
}

export interface TargetPolicy {
  /** WEBHOOK_ALLOW_PRIVATE_TARGETS: http, any port, IP literals and private addresses (tests, dev). */
  allowPrivate: boolean;
}

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** DNS lookup of a host name: every address it resolves to. */
export type HostResolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: HostResolver = (hostname) => lookup(hostname, { all: true, verbatim: true });

export interface VettedTarget {
  url: URL;
  /** The host name as written (no brackets): sent as Host and SNI. */
  hostname: string;
  /** The checked address the connection must go to. */
  address: string;
  family: 4 | 6;
}

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
const NUMERIC = /^[0-9]+$/;

/** Ranges ipaddr.js 1.x calls plain unicast that are still not the public Internet. */
const EXTRA_NON_PUBLIC_V4 = ['198.18.0.0/15'].map((cidr) => ipaddr.IPv4.parseCIDR(cidr));
/** IPv6 global unicast is 2000::/3; anything else is special-purpose. */
const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR('2000::/3');

/** The syntactic rules: everything that can be decided without DNS. */
export function checkTargetUrl(raw: string, policy: TargetPolicy): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new TargetRefusedError('must be an absolute URL');
  }
  if (policy.allowPrivate) {
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new TargetRefusedError('must use https');
    return url;
  }
  if (url.protocol !== 'https:') throw new TargetRefusedError('must use https');
  // WHATWG drops the scheme's default port, so '' means 443 here.
  if (url.port !== '' && url.port !== '80' && url.port !== '443') {
    throw new TargetRefusedError('must use port 80 or 443');
  }
  if (url.username !== '' || url.password !== '') throw new TargetRefusedError('must not contain credentials');
  checkDomainName(url.hostname);
  return url;
}

/**
 * The URL parser already turns `2130706433`, `0x7f000001`, `0177.0.0.1` and `127.1`
 * into dotted form, so an IP check on its hostname sees every IPv4 notation; bracketed
 * hosts are IPv6 literals.
 */
function checkDomainName(hostname: string): void {
  if (hostname.startsWith('[') || isIP(hostname) !== 0 || ipaddr.isValid(hostname)) {
    throw new TargetRefusedError('must be a domain name, not an IP address');
  }
  const name = hostname.endsWith('.') ? hostname.slice(0, -1) : hostname;
  const labels = name.split('.');
  if (name.length > 253 || !labels.every((label) => LABEL.test(label))) {
    throw new TargetRefusedError('must have a valid domain name');
  }
  if (labels[labels.length - 1] === 'localhost') throw new TargetRefusedError('must not be localhost');
  if (labels.length < 2) throw new TargetRefusedError('must be a fully qualified domain name');
  if (NUMERIC.test(labels[labels.length - 1])) throw new TargetRefusedError('must be a domain name, not an IP address');
}

/** True for an address on the public Internet (IPv4-mapped IPv6 judged as its IPv4). */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.process(address);
  if (parsed.range() !== 'unicast') return false;
  if (parsed.kind() === 'ipv4') {
    const v4 = parsed as ipaddr.IPv4;
    return !EXTRA_NON_PUBLIC_V4.some((range) => v4.match(range));
  }
  return (parsed as ipaddr.IPv6).match(GLOBAL_UNICAST_V6);
}

/** Checks a target (syntax, then DNS) and picks the address to connect to. */
export async function vetTarget(
  raw: string,
  policy: TargetPolicy,
  resolver: HostResolver = systemResolver,
): Promise<VettedTarget> {
  const url = checkTargetUrl(raw, policy);
  const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const literal = isIP(hostname);
  if (literal !== 0) return { url, hostname, address: hostname, family: literal === 6 ? 6 : 4 };

  let addresses: ResolvedAddress[];
  try {
    addresses = await resolver(hostname);
  } catch {
    throw new UnresolvedHostError(hostname);
  }
  if (addresses.length === 0) throw new UnresolvedHostError(hostname);
  if (!policy.allowPrivate) {
    // Every answer must be public: a mixed answer is how rebinding attacks start.
    const inside = addresses.find((a) => !isPublicAddress(a.address));
    if (inside) throw new TargetRefusedError(`host "${hostname}" resolves to a non-public address (${inside.address})`);
  }
  const chosen = addresses[0];
  return { url, hostname, address: chosen.address, family: isIP(chosen.address) === 6 ? 6 : 4 };
}

/**
 * The check when a hook is created. In the private (test/dev) mode a name that does not
 * resolve yet is accepted, e.g. a container that is not up: `vetTarget` runs again at
 * every delivery anyway. In the default mode it must resolve to public addresses now.
 */
export async function checkNewTarget(raw: string, policy: TargetPolicy, resolver: HostResolver): Promise<void> {
  try {
    await vetTarget(raw, policy, resolver);
  } catch (error) {
    if (!(policy.allowPrivate && error instanceof UnresolvedHostError)) throw error;
  }
}
