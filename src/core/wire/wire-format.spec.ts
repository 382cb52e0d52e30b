import { loadConfig } from 'src/config/load-config';
import { addressBlock, WireFormat } from './wire-format';

const EMPTY = { addr1: null, addr2: null, addr3: null, city: null, state: null, postcode: null, country: null };

describe('addressBlock', () => {
  it('prints street, "city state postcode" and country on their own lines', () => {
    expect(
      addressBlock({
        ...EMPTY,
        addr1: '144 Ross Hill',
        city: 'Huntington',
        state: 'Vermont',
        postcode: '05462',
        country: 'US',
      }),
    ).toBe('144 Ross Hill\nHuntington Vermont 05462\nUS');
  });

  it('leaves out a missing city', () => {
    expect(addressBlock({ ...EMPTY, state: 'Vermont', postcode: '05401' })).toBe('Vermont 05401');
  });

  it('keeps every street line and skips blank ones', () => {
    expect(
      addressBlock({ ...EMPTY, addr1: 'Suite 5', addr2: '   ', addr3: '1 Main St', city: 'Burlington', country: '' }),
    ).toBe('Suite 5\n1 Main St\nBurlington');
  });

  it('is empty when nothing is set', () => {
    expect(addressBlock(EMPTY)).toBe('');
    expect(addressBlock({ addr1: '', addr2: '', addr3: '', city: '', state: '', postcode: '', country: '' })).toBe('');
  });
});

describe('WireFormat', () => {
  it('builds API and page URLs under PUBLIC_URL (trailing slash dropped)', () => {
    const wire = new WireFormat(loadConfig({ PUBLIC_URL: 'https://billing.example.com/' }));
    expect(wire.publicUrl).toBe('https://billing.example.com');
    expect(wire.apiUrl('customer', 42)).toBe('https://billing.example.com/api/v3/customer/42');
    expect(wire.pageUrl('r/paymethod/i/abc123def456')).toBe('https://billing.example.com/r/paymethod/i/abc123def456');
  });

  it('defaults to localhost on PORT', () => {
    const wire = new WireFormat(loadConfig({ PORT: '8080' }));
    expect(wire.apiUrl('invoice', 7)).toBe('http://localhost:8080/api/v3/invoice/7');
  });

  it('renders datetimes and dates in the account zone and format', () => {
    const wire = new WireFormat(loadConfig({ DATETIME_FORMAT: 'sql' }));
    expect(wire.timezone).toBe('America/Chicago');
    expect(wire.datetime(new Date('2026-01-15T18:00:00Z'))).toBe('2026-01-15 12:00:00');
    expect(wire.datetime(null)).toBeNull();
    expect(wire.date(new Date('2026-01-16T03:00:00Z'))).toBe('2026-01-15');
    expect(wire.date('2026-03-01')).toBe('2026-03-01');

    const iso = new WireFormat(loadConfig({}));
    expect(iso.datetime(new Date('2026-07-01T17:00:00Z'))).toBe('2026-07-01T12:00:00-05:00');
  });
});
