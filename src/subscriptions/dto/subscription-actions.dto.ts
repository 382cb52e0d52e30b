import { DocRequired } from 'src/core/validation/doc-fields';
import { SubscriptionUpgradeLineDto } from './subscription-line.dto';
import { Allow } from 'class-validator';
import { RECURRING_PAYCYCLES } from 'src/billing/cycles/cycle-length';
import { BoolField, DateInputField, EnumField, StrField } from 'src/core/validation/field-decorators';

export const PRORATE_CYCLES = ['now', 'next'] as const;

/** Action upgrade: `line_items` are read by parseSubscriptionLines. */
export class UpgradeDto {
  @Allow() @DocRequired({ type: () => [SubscriptionUpgradeLineDto] }) line_items?: unknown;
  @BoolField() subscribe_prorate?: boolean;
  @BoolField() cancel_prorate?: boolean;
  @EnumField(PRORATE_CYCLES) subscribe_prorate_cycle?: (typeof PRORATE_CYCLES)[number];
}

/** Action cancel: now, or at a future `cancel_date`. */
export class CancelDto {
  @DateInputField() cancel_date?: string;
  @StrField() cancel_reason?: string;
  @BoolField() cancel_prorate?: boolean;
  @EnumField(PRORATE_CYCLES) subscribe_prorate_cycle?: (typeof PRORATE_CYCLES)[number];
}

/** Action suspend: from now (or `suspendfrom_datetime`) until `suspendto_datetime` (none = indefinitely). */
export class SuspendDto {
  @DateInputField() suspendfrom_datetime?: string;
  @DateInputField() suspendto_datetime?: string;
}

export class HoldDto {
  @DateInputField() holduntil_datetime?: string;
}

export class PaycycleDto {
  @EnumField(RECURRING_PAYCYCLES) paycycle?: string;
}

/** Action invoice: bill the next cycle now, dated `date` (default today). */
export class InvoiceNowDto {
  @DateInputField() date?: string;
}
