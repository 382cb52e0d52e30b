import { TransactionType } from './entities/transaction.entity';

export const TRANSACTION_TYPE_NAMES: Readonly<Record<TransactionType, string>> = {
  pay: 'Payment',
  ref: 'Refund',
  cre: 'Credit',
  spl: 'Split',
};

/** `gateway_method` values of an offline payment (SPEC "Transactions") and how they read. */
export const OFFLINE_METHOD_NAMES: Readonly<Record<string, string>> = {
  visa: 'Visa',
  mastercard: 'MasterCard',
  'american-express': 'American Express',
  discover: 'Discover',
  check: 'Paid by Check',
  paypal: 'PayPal',
  credit: 'Credits',
  ach: 'ACH',
};
