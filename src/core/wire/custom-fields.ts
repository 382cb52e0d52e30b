/** A row with `custom_1..custom_N` columns (entities declare them with @customColumns). */
export type CustomFieldRow = { [custom: `custom_${number}`]: string | null | undefined };

/**
 * The wire fields `custom_1..custom_N` of a row, in order, null when unset; a presenter
 * spreads them into its literal at their place in the field order.
 *
 * Written out as object literals on purpose: an object built key by key in a loop
 * (`out[`custom_${i}`] = ...`) and then spread cost about ten times as much to build as
 * a literal, measured in isolation. Each list is written out in full for the same reason:
 * spreading a shorter list into a longer one was slow again.
 */
export function customFields5(row: CustomFieldRow) {
  return {
    custom_1: row.custom_1 ?? null,
    custom_2: row.custom_2 ?? null,
    custom_3: row.custom_3 ?? null,
    custom_4: row.custom_4 ?? null,
    custom_5: row.custom_5 ?? null,
  };
}

export function customFields10(row: CustomFieldRow) {
  return {
    custom_1: row.custom_1 ?? null,
    custom_2: row.custom_2 ?? null,
    custom_3: row.custom_3 ?? null,
    custom_4: row.custom_4 ?? null,
    custom_5: row.custom_5 ?? null,
    custom_6: row.custom_6 ?? null,
    custom_7: row.custom_7 ?? null,
    custom_8: row.custom_8 ?? null,
    custom_9: row.custom_9 ?? null,
    custom_10: row.custom_10 ?? null,
  };
}

export function customFields20(row: CustomFieldRow) {
  return {
    custom_1: row.custom_1 ?? null,
    custom_2: row.custom_2 ?? null,
    custom_3: row.custom_3 ?? null,
    custom_4: row.custom_4 ?? null,
    custom_5: row.custom_5 ?? null,
    custom_6: row.custom_6 ?? null,
    custom_7: row.custom_7 ?? null,
    custom_8: row.custom_8 ?? null,
    custom_9: row.custom_9 ?? null,
    custom_10: row.custom_10 ?? null,
    custom_11: row.custom_11 ?? null,
    custom_12: row.custom_12 ?? null,
    custom_13: row.custom_13 ?? null,
    custom_14: row.custom_14 ?? null,
    custom_15: row.custom_15 ?? null,
    custom_16: row.custom_16 ?? null,
    custom_17: row.custom_17 ?? null,
    custom_18: row.custom_18 ?? null,
    custom_19: row.custom_19 ?? null,
    custom_20: row.custom_20 ?? null,
  };
}
