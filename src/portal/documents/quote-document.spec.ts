import { quoteDocument, quoteStanding } from './quote-document';

const CUSTOMER = { display_as: 'Acme Widgets', bill_block: '1 Main St\nBurlington VT 05401' };

function quote(fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    quote_id: 7,
    refnumber: 'Q-7',
    paycycle: 'mon',
    paycycle_name: 'Monthly',
    date: '2026-03-01',
    validuntil_date: '2026-03-10',
    currency_symbol: '$',
    quote_status_str: 'open-new',
    quote_status_name: 'New',
    bill_block: '',
    subtotal: 120,
    taxes: 0,
    total: 120,
    setup: 0,
    upfront: 120,
    line_items: [
      { descrip: 'Fixed', item_name: 'Plan', line_rate: 50, line_quantity: 2, line_subtotal: 100 },
      {
        descrip: null,
        item_name: 'Seats',
        line_rate: null,
        line_quantity: 4,
        line_subtotal: 20,
        tierset: { pricemodel: 'tie', base: 0 },
      },
    ],
    ...fields,
  };
}

describe('quoteStanding', () => {
  it('is open through the last valid day, expired after it, and closed quotes keep their answer', () => {
    expect(quoteStanding(quote(), '2026-03-10')).toBe('open');
    expect(quoteStanding(quote(), '2026-03-11')).toBe('expired');
    expect(quoteStanding(quote({ validuntil_date: null }), '2030-01-01')).toBe('open');
    expect(quoteStanding(quote({ quote_status_str: 'closed-won' }), '2026-03-11')).toBe('accepted');
    expect(quoteStanding(quote({ quote_status_str: 'closed-lost' }), '2026-03-01')).toBe('rejected');
  });
});

describe('quoteDocument', () => {
  it('prints a recurring quote: its cycle in the total, no tax or setup rows when there are none', () => {
    const doc = quoteDocument('Northwind', quote(), CUSTOMER, '2026-03-05');
    expect(doc).toMatchObject({ kind: 'Quote', number: 'Q-7', status: 'New', standing: 'open', isSettled: false });
    // The quote has no address of its own: the customer's is printed.
    expect(doc.billTo).toBe(CUSTOMER.bill_block);
    expect(doc.facts).toEqual([
      { label: 'Date', value: '2026-03-01' },
      { label: 'Valid until', value: '2026-03-10' },
      { label: 'Billed', value: 'Monthly' },
    ]);
    // A tiered line has no one rate; its amount is printed.
    expect(doc.lines).toEqual([
      { description: 'Fixed', quantity: '2', rate: '$ 50.00', total: '$ 100.00' },
      { description: 'Seats', quantity: '4', rate: '', total: '$ 20.00' },
    ]);
    expect(doc.totals.map((t) => [t.label, t.amount])).toEqual([
      ['Subtotal', '$ 120.00'],
      ['Due on acceptance', '$ 120.00'],
      ['Then monthly', '$ 120.00'],
    ]);
  });

  it('prints the one-time and setup part of a recurring quote apart from what each cycle bills', () => {
    // 49.00 monthly + a 250.00 one-time line (tierset paycycle one), 2.94 tax on the plan
    // (6 %: 49.00 × 0.06 = 2.94); setup 10.00. total = 49.00 + 250.00 + 2.94 = 301.94;
    // upfront = 301.94 + 10.00 = 311.94; then monthly = 301.94 − 250.00 = 51.94.
    const doc = quoteDocument(
      'Northwind',
      quote({
        subtotal: 299,
        taxes: 2.94,
        total: 301.94,
        setup: 10,
        upfront: 311.94,
        line_items: [
          { item_name: 'Plan', line_rate: 49, line_quantity: 1, line_subtotal: 49, line_total: 51.94 },
          {
            item_name: 'Installation',
            line_rate: null,
            line_quantity: 1,
            line_subtotal: 250,
            line_total: 250,
            tierset: { pricemodel: 'fla', base: 250, paycycle: 'one' },
          },
        ],
      }),
      CUSTOMER,
      '2026-03-05',
    );
    expect(doc.lines.map((l) => [l.description, l.rate, l.total])).toEqual([
      ['Plan', '$ 49.00', '$ 49.00'],
      ['Installation', '$ 250.00', '$ 250.00'],
    ]);
    expect(doc.totals.map((t) => [t.label, t.amount])).toEqual([
      ['Subtotal', '$ 299.00'],
      ['Taxes', '$ 2.94'],
      ['One-time items', '$ 250.00'],
      ['Setup fees', '$ 10.00'],
      ['Due on acceptance', '$ 311.94'],
      ['Then monthly', '$ 51.94'],
    ]);
  });

  it('prints a one-time quote with taxes and setup fees, and an expired one as expired', () => {
    const doc = quoteDocument(
      'Northwind',
      quote({ paycycle: 'one', taxes: 7.2, total: 127.2, setup: 25, upfront: 152.2 }),
      CUSTOMER,
      '2026-03-11',
    );
    expect(doc).toMatchObject({ status: 'Expired', standing: 'expired' });
    expect(doc.facts).toContainEqual({ label: 'Billed', value: 'Once' });
    expect(doc.totals.map((t) => [t.label, t.amount])).toEqual([
      ['Subtotal', '$ 120.00'],
      ['Taxes', '$ 7.20'],
      ['Total', '$ 127.20'],
      ['Setup fees', '$ 25.00'],
      ['Due on acceptance', '$ 152.20'],
    ]);
  });
});
