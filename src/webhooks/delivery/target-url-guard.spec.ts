import { HostResolver, isPublicAddress, TargetRefusedError, vetTarget } from './target-url-guard';

const STRICT = { allowPrivate: false };
const RELAXED = { allowPrivate: true };

/** A resolver with fixed answers: no network in unit tests. */
function resolverFor(answers: Record<string, string[]>): HostResolver & { calls: string[] } {
  const calls: string[] = [];
  const resolve = (hostname: string) => {
    calls.push(hostname);
    const found = answers[hostname];
    if (!found) return Promise.reject(new Error('ENOTFOUND'));
    return Promise.resolve(found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })));
  };
  return Object.assign(resolve, { calls });
}

const PUBLIC = resolverFor({
  'hooks.example.com': ['93.184.216.34'],
  'v6.example.com': ['2606:2800:220:1:248:1893:25c8:1946'],
  'internal.example.com': ['10.0.0.5'],
  'mixed.example.com': ['93.184.216.34', '192.168.1.10'],
  'metadata.example.com': ['169.254.169.254'],
  'mapped.example.com': ['::ffff:127.0.0.1'],
  'ula.example.com': ['fd12:3456::1'],
  'nothing.example.com': [],
});

async function refusal(url: string, resolver: HostResolver = PUBLIC): Promise<string> {
  try {
    await vetTarget(url, STRICT, resolver);
  } catch (error) {
    expect(error).toBeInstanceOf(TargetRefusedError);
    return (error as Error).message;
  }
  throw new Error(`${url} was accepted`);
}

describe('target URL guard', () => {
  it('accepts an https domain that resolves to a public address, and pins that address', async () => {
    const target = await vetTarget('https://hooks.example.com/in?x=1', STRICT, PUBLIC);
    expect(target).toMatchObject({ hostname: 'hooks.example.com', address: '93.184.216.34', family: 4 });
    expect(target.url.pathname).toBe('/in');
    const v6 = await vetTarget('https://v6.example.com:443/', STRICT, PUBLIC);
    expect(v6).toMatchObject({ address: '2606:2800:220:1:248:1893:25c8:1946', family: 6 });
    await expect(vetTarget('https://hooks.example.com:80/', STRICT, PUBLIC)).resolves.toBeDefined();
  });

  it('refuses http://', async () => {
    expect(await refusal('http://hooks.example.com/')).toBe('must use https');
  });

  it.each(['8080', '22', '8443'])('refuses port %s', async (port) => {
    expect(await refusal(`https://hooks.example.com:${port}/`)).toBe('must use port 80 or 443');
  });

  it.each([
    'https://127.0.0.1/',
    'https://2130706433/',
    'https://0x7f000001/',
    'https://0177.0.0.1/',
    'https://127.1/',
    'https://0x7f.1/',
    'https://[::1]/',
    'https://[::ffff:127.0.0.1]/',
    'https://[::ffff:7f00:1]/',
    'https://169.254.169.254/latest/meta-data',
    'https://8.8.8.8/',
    'https://[2606:4700::1111]/',
  ])('refuses the IP literal %s without asking DNS', async (url) => {
    const resolver = resolverFor({});
    expect(await refusal(url, resolver)).toBe('must be a domain name, not an IP address');
    expect(resolver.calls).toEqual([]);
  });

  it.each(['https://localhost/', 'https://LOCALHOST./', 'https://api.localhost/'])('refuses %s', async (url) => {
    expect(await refusal(url)).toBe('must not be localhost');
  });

  it('refuses a single-label name', async () => {
    expect(await refusal('https://intranet/')).toBe('must be a fully qualified domain name');
  });

  it('refuses credentials and malformed URLs', async () => {
    expect(await refusal('https://user:pw@hooks.example.com/')).toBe('must not contain credentials');
    expect(await refusal('not a url')).toBe('must be an absolute URL');
    expect(await refusal('https://bad_name.example.com/')).toBe('must have a valid domain name');
  });

  it.each([
    ['internal.example.com', '10.0.0.5'],
    ['mixed.example.com', '192.168.1.10'],
    ['metadata.example.com', '169.254.169.254'],
    ['mapped.example.com', '::ffff:127.0.0.1'],
    ['ula.example.com', 'fd12:3456::1'],
  ])('refuses %s, which resolves to %s', async (host, address) => {
    expect(await refusal(`https://${host}/`)).toBe(`host "${host}" resolves to a non-public address (${address})`);
  });

  it('refuses a name that does not resolve', async () => {
    expect(await refusal('https://nothing.example.com/')).toContain('does not resolve');
    expect(await refusal('https://unknown.example.com/')).toContain('does not resolve');
  });

  it('relaxed for tests: http, any port, loopback literals and private answers', async () => {
    await expect(vetTarget('http://127.0.0.1:8080/hook', RELAXED, PUBLIC)).resolves.toMatchObject({
      address: '127.0.0.1',
      family: 4,
    });
    await expect(vetTarget('http://[::1]:9/', RELAXED, PUBLIC)).resolves.toMatchObject({ address: '::1', family: 6 });
    await expect(vetTarget('https://internal.example.com:22/', RELAXED, PUBLIC)).resolves.toMatchObject({
      address: '10.0.0.5',
    });
    await expect(vetTarget('ftp://hooks.example.com/', RELAXED, PUBLIC)).rejects.toThrow('must use https');
  });
});

describe('isPublicAddress', () => {
  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.0.1',
    '169.254.169.254',
    '100.64.0.1',
    '224.0.0.1',
    '0.0.0.0',
    '255.255.255.255',
    '192.0.2.1',
    '198.18.0.1',
    '240.0.0.1',
    '::',
    '::1',
    'fe80::1',
    'fd00::1',
    'ff02::1',
    '::ffff:10.0.0.1',
    '::ffff:169.254.169.254',
    '64:ff9b::a00:1',
    '2001:db8::1',
    '2002:a00:1::',
    'not-an-ip',
  ])('%s is not public', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['93.184.216.34', '8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '::ffff:93.184.216.34'])(
    '%s is public',
    (address) => {
      expect(isPublicAddress(address)).toBe(true);
    },
  );
});
