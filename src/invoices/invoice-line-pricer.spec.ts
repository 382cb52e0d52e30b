import { Money } from 'src/core/money/decimal';
import { Item } from 'src/items/entities/item.entity';
import { Tierset } from 'src/items/entities/tierset.entity';
import { LoadedTierset } from 'src/items/tierset-loader';
import { InvoiceLine } from './entities/invoice-line.entity';
import { priceInvoiceLines, PricingInputs } from './invoice-line-pricer';

const d = (v: string | number) => new Money(v);

function item(id: number, over: Partial<Item> = {}): Item {
  return {
    item_id: id,
    item_type: 'service',
    name: `item ${id}`,
    description: null,
    tax_group_id: null,
    ...over,
  } as Item;
}
function tierset(id: number, over: Partial<Tierset> = {}): LoadedTierset {
  const t = {
    tierset_id: id,
    currency_id: 1,
    setup: d(0),
    base: d(0),
    minimum: d(0),
    percent: d(0),
    pricemodel: 'fla',
    ...over,
  };
  return { tierset: t as Tierset, tiers: [] };
}

const inputs = (noTaxes = false): PricingInputs => ({
  items: new Map([
    [1, item(1, { tax_group_id: 7 })],
    [2, item(2, { item_type: 'discount' })],
    [3, item(3)],
  ]),
  tiersets: new Map([
    [1, [tierset(11, { base: d('40'), setup: d('12.5') })]],
    [2, [tierset(12, { percent: d('15') })]],
    [3, []],
  ]),
  groupTaxes: new Map([[7, { tax_group_id: 7, tax_group_name: 'G', tax_id: 70, tax_name: 'T', tax_rate: d('8.875') }]]),
  currencyId: 1,
  noTaxes,
});

describe('priceInvoiceLines', () => {
  it('adds a setup line, taxes per line, discounts the non-discount lines', () => {
    const { rows, sums } = priceInvoiceLines(
      [
        { origin: 'new', path: 'l[0]', item_id: 1, line_quantity: d(2), custom: { custom_1: 'x' } },
        { origin: 'new', path: 'l[1]', item_id: 3, line_rate: d('9.99'), custom: {} },
        { origin: 'new', path: 'l[2]', item_id: 2, custom: {} },
      ],
      [],
      inputs(),
      0,
    );
    // 2 x 40 = 80.00, tax 8.875 % = 7.10; setup 12.50, tax 1.109375 -> 1.11; 9.99 untaxed;
    // discount 15 % of 102.49 = 15.3735 -> -15.37
    expect(rows.map((r) => [r.item_id, r.line_subtotal.toFixed(2), r.tax_total.toFixed(2), r.is_setup])).toEqual([
      [1, '80.00', '7.10', false],
      [1, '12.50', '1.11', true],
      [3, '9.99', '0.00', false],
      [2, '-15.37', '0.00', false],
    ]);
    expect(rows[0]).toMatchObject({ custom_1: 'x', tierset_id: 11, is_taxed: true, tax_id: 70, tax_group_id: 7 });
    expect(rows[1]).toMatchObject({ custom_1: null, descrip: 'Setup: item 1', paycycle: 'one' });
    expect(rows[2]).toMatchObject({ tierset_id: null, is_taxed: false });
    expect(rows.map((r) => r.sort_order)).toEqual([0, 1, 2, 3]);
    expect(sums.subtotal.toFixed(2)).toBe('87.12'); // 80 + 12.50 + 9.99 - 15.37
    expect(sums.taxes.toFixed(2)).toBe('8.21'); // 7.10 + 1.11
    expect(sums.total.toFixed(2)).toBe('95.33');
    expect(sums.sum_onetime.toFixed(2)).toBe('87.12');
  });

  it('counts kept lines toward discounts and sums without repricing them', () => {
    const kept = {
      line_item_id: 5,
      line_subtotal: d('100'),
      tax_total: d('8.88'),
      is_base: true,
      is_usage: false,
    } as InvoiceLine;
    const { rows, sums } = priceInvoiceLines(
      [{ origin: 'new', path: 'l[0]', item_id: 2, custom: {} }],
      [kept],
      inputs(true),
      3,
    );
    expect(rows[0].line_subtotal.toFixed(2)).toBe('-15.00'); // 15 % of the kept 100
    expect(rows[0].sort_order).toBe(3);
    expect(sums.subtotal.toFixed(2)).toBe('85.00');
    expect(sums.taxes.toFixed(2)).toBe('8.88');
    expect(sums.sum_base.toFixed(2)).toBe('100.00');
    expect(sums.sum_onetime.toFixed(2)).toBe('-15.00');
  });

  it('bills setup only for a line new on this invoice; a setup line keeps its own rate', () => {
    const { rows } = priceInvoiceLines(
      [
        { origin: 'existing', path: 'l[0]', item_id: 1, line_quantity: d(3), custom: {} },
        { origin: 'setup', tierset_id: 11, path: 'l[1]', item_id: 1, line_rate: d('12.5'), custom: {} },
      ],
      [],
      inputs(true),
      0,
    );
    expect(rows.map((r) => [r.line_subtotal.toFixed(2), r.is_setup, r.tierset_id])).toEqual([
      ['120.00', false, 11],
      ['12.50', true, 11],
    ]);
  });

  it('refuses a total below 0', () => {
    const discount = { origin: 'new' as const, path: 'l[1]', item_id: 2, custom: {} };
    const negative = { origin: 'new' as const, path: 'l[0]', item_id: 3, line_rate: d('-1'), custom: {} };
    expect(() => priceInvoiceLines([negative, discount], [], inputs(), 0)).toThrow(
      'Field "line_items": the invoice total would be -0.85; it cannot be less than 0.',
    );
  });

  it('does not tax a no_taxes customer', () => {
    const { rows } = priceInvoiceLines([{ origin: 'new', path: 'l[0]', item_id: 1, custom: {} }], [], inputs(true), 0);
    expect(rows.map((r) => [r.tax_total.toFixed(2), r.is_taxed, r.tax_taxable.toFixed(2)])).toEqual([
      ['0.00', false, '0.00'],
      ['0.00', false, '0.00'],
    ]);
  });

  it('names an unknown item and an item without a price', () => {
    expect(() =>
      priceInvoiceLines([{ origin: 'new', path: 'line_items[4]', item_id: 99, custom: {} }], [], inputs(), 0),
    ).toThrow('Field "line_items[4].item_id": no item with id 99 exists.');
    expect(() =>
      priceInvoiceLines([{ origin: 'new', path: 'line_items[0]', item_id: 3, custom: {} }], [], inputs(), 0),
    ).toThrow('Field "line_items[0].line_rate": item 3 has no price; send a line_rate.');
  });
});
