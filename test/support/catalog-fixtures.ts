import { TestApp } from './test-app';

/** Creates through the API and returns the new id. */
export async function createId(t: TestApp, path: string, body: Record<string, unknown>): Promise<number> {
  const res = await t.post(path, body);
  if (res.status !== 201) throw new Error(`POST ${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return (res.body as { response: { id: number } }).response.id;
}

export interface Catalog {
  standardTax: number;
  cityTax: number;
  plan: number;
  seats: number;
  consulting: number;
  metered: number;
  tenOff: number;
  flatOff: number;
}

/**
 * A small catalog with every price model and two tax groups:
 * - plan: fla 99.00, taxed 6 %;
 * - seats: tie base 10, 1-10 at 5, 11+ at 4.50, setup 25, taxed 7.25 %;
 * - consulting: uni 150 per unit, untaxed; metered: pas, untaxed;
 * - tenOff: a 10 % discount; flatOff: a 15.00 discount.
 */
export async function createCatalog(t: TestApp): Promise<Catalog> {
  const state = await createId(t, '/api/v3/tax', { name: 'State tax', rate: 6 });
  const city = await createId(t, '/api/v3/tax', { tax_name: 'City tax', tax_rate: '7.25' });
  const standardTax = await createId(t, '/api/v3/tax_group', { name: 'Standard', tax_id: state });
  const cityTax = await createId(t, '/api/v3/tax_group', { tax_group_name: 'City', tax_id: city });
  return {
    standardTax,
    cityTax,
    plan: await createId(t, '/api/v3/item', {
      name: 'Plan',
      external_key: 'plan',
      accounting_sku: 'PLAN',
      tax_group_id: standardTax,
      pricemodel: { pricemodel: 'fla', base: 99, paycycle: 'mon' },
    }),
    seats: await createId(t, '/api/v3/item', {
      name: 'Seats',
      units: 'seat',
      tax_group_id: cityTax,
      tiersets: [
        {
          pricemodel: 'tie',
          base: 10,
          setup: 25,
          paycycle: 'mon',
          tiers: [
            { unit_from: 1, unit_to: 10, amount: 5 },
            { unit_from: 11, unit_to: null, amount: 4.5 },
          ],
        },
      ],
    }),
    consulting: await createId(t, '/api/v3/item', {
      name: 'Consulting',
      pricemodel: { pricemodel: 'uni', tiers: [{ unit_from: 1, unit_to: null, amount: 150 }] },
    }),
    metered: await createId(t, '/api/v3/item', { name: 'Metered', pricemodel: { pricemodel: 'pas' } }),
    tenOff: await createId(t, '/api/v3/item', { name: '10% off', item_type: 'discount', pricemodel: { percent: 10 } }),
    flatOff: await createId(t, '/api/v3/item', { name: '15 off', item_type: 'discount', pricemodel: { base: 15 } }),
  };
}

/** Rows in a table (to prove a refused write wrote nothing). */
export async function rowCount(t: TestApp, table: string): Promise<number> {
  const rows = await t.dataSource.query<Array<{ n: number | string }>>(`SELECT COUNT(*) AS n FROM \`${table}\``);
  return Number(rows[0].n);
}
