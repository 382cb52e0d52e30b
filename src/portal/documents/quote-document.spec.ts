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
      ['Total (Monthly)', '$ 120.00'],
      ['Due on acceptance', '$ 120.00'],
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
