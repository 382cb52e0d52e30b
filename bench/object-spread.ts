/**
 * `npx ts-node -r tsconfig-paths/register bench/object-spread.ts`: what an object literal that starts with a spread
 * and goes on costs on this Node, beside the same object built otherwise, in the same run
 * (ARCHITECTURE.md, "Objects on hot paths"). Prints ns per object and the ratio.
 */

import { customFields20 } from 'src/core/wire/custom-fields';

const ROUNDS = 300_000;

/** A presented fragment: the twenty custom fields of a customer or invoice, made fresh each time. */
const presented = (i: number) => customFields20({ custom_1: String(i) });
const rows = Array.from({ length: 20 }, (_, i) => ({ line_item_id: i, package_id: i, customer_id: i }));

function nsPerObject(build: (i: number) => unknown): number {
  let sink: unknown;
  for (let i = 0; i < ROUNDS / 10; i++) sink = build(i);
  const started = process.hrtime.bigint();
  for (let i = 0; i < ROUNDS; i++) sink = build(i);
  const ns = Number(process.hrtime.bigint() - started) / ROUNDS;
  if (sink === undefined) throw new Error('nothing built');
  return ns;
}

const cases: Array<[string, (i: number) => unknown, (i: number) => unknown]> = [
  [
    'twenty presented fields and three more',
    (i) => ({ ...presented(i), a: 1, b: 2, c: 3 }),
    (i) => Object.assign(presented(i), { a: 1, b: 2, c: 3 }),
  ],
  [
    'a three-field row and five fields',
    (i) => ({ ...rows[i % 20], v: i, type: 'add', from: null, to: null, key: 'k' }),
    (i) => {
      const r = rows[i % 20];
      return {
        line_item_id: r.line_item_id,
        package_id: r.package_id,
        customer_id: r.customer_id,
        v: i,
        type: 'add',
        from: null,
        to: null,
        key: 'k',
      };
    },
  ],
  ['a three-field row and one field', (i) => ({ ...rows[i % 20], v: i }), (i) => ({ v: i, ...rows[i % 20] })],
];

console.log(`Node ${process.version}: ns per object, spread first and more | built otherwise | ratio`);
for (const [name, spreadFirst, otherwise] of cases) {
  const slow = nsPerObject(spreadFirst);
  const fast = nsPerObject(otherwise);
  console.log(`${name}: ${slow.toFixed(0)} | ${fast.toFixed(0)} | ${(slow / fast).toFixed(1)}x`);
}
