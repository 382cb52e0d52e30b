import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { WireCustom5 } from 'src/core/wire/wire-custom-fields';
import { TransactionType } from './entities/transaction.entity';

/** One application of a transaction to an invoice (or a schedule entry of it). */
export class WireTransactionApplied extends WireCustom5 {
  @ApiProperty({ type: 'integer' }) transaction_applied_id: number;
  @ApiProperty({ type: 'integer' }) transaction_id: number;
  @ApiProperty({ type: 'integer' }) invoice_id: number;
  @ApiProperty({ type: 'integer', nullable: true }) invoice_schedule_id: number | null;
  @ApiProperty({ type: 'number' }) applied: number;
  @ApiProperty({ type: 'string', nullable: true }) memo: string | null;
}

/**
 * A transaction (SPEC "Transaction") on the wire, as TransactionPresenter writes it: money as numbers, dates and datetimes as
 * strings in the account zone, null where unset. It is the presenter's return type (a
 * field added there is a type error until declared here) and, through `@ApiProperty`, the
 * `response` of its envelope in the OpenAPI document.
 */
export class WireTransaction extends WireCustom5 {
  @ApiProperty({ type: 'string' }) url_self: string;
  @ApiProperty({ type: 'integer' }) transaction_id: number;
  @ApiProperty({ type: 'integer', nullable: true }) gateway_id: number | null;
  @ApiProperty({ type: 'integer' }) currency_id: number;
  @ApiProperty({ type: 'string', nullable: true }) external_key: string | null;
  @ApiProperty({ type: 'string' }) token: string;
  @ApiProperty({ type: 'string' }) transaction_date: string;
  @ApiProperty({ type: 'number' }) gateway_status: number;
  @ApiProperty({ type: 'string', nullable: true }) gateway_transid: string | null;
  @ApiProperty({ type: 'string' }) gateway_msg: string;
  @ApiProperty({ type: 'number' }) amount: number;
  @ApiProperty({ type: 'number' }) fee: number;
  @ApiProperty({ enum: ['pay', 'ref', 'cre', 'spl'] }) transaction_type: TransactionType;
  @ApiProperty({ type: 'string', nullable: true }) transaction_method: string | null;
  @ApiProperty({ type: 'string', nullable: true }) transaction_detail: string | null;
  @ApiProperty({ type: 'string', nullable: true }) transaction_datetime: string | null;
  @ApiProperty({ type: 'string', nullable: true }) transaction_ipaddr: string | null;
  @ApiProperty({ type: 'string', nullable: true }) void_datetime: string | null;
  @ApiProperty({ type: 'string' }) transaction_type_name: string;
  @ApiProperty({ type: 'string', nullable: true }) currency_symbol: string | null;
  @ApiProperty({ type: 'string', nullable: true }) currency_iso4217: string | null;
  @ApiProperty({ type: 'integer' }) customer_id: number;
  @ApiProperty({ type: 'integer', nullable: true }) parent_transaction_id: number | null;
  @ApiProperty({ type: 'integer', nullable: true, description: 'always null' }) transaction_batch_id: null;
  @ApiProperty({ type: 'integer' }) brand_id: number;
  @ApiProperty({ type: 'string', nullable: true }) gateway_type: string | null;
  @ApiProperty({ type: 'string', nullable: true }) gateway_nickname: string | null;
  @ApiProperty({ type: 'string', nullable: true }) gateway_method: string | null;
  @ApiProperty({ type: 'number', nullable: true }) gateway_err_code: number | null;
  @ApiProperty({ type: 'string', nullable: true }) gateway_err_detail: string | null;
  @ApiProperty({ type: 'string', nullable: true, description: 'always null' }) gateway_opts: null;
  @ApiProperty({ type: 'integer', nullable: true }) creditcard_id: number | null;
  @ApiProperty({ type: 'integer', nullable: true }) ach_id: number | null;
  @ApiProperty({ type: 'integer', nullable: true }) tokenized_id: number | null;
  @ApiProperty({ type: 'number' }) applied: number;
  @ApiProperty({ type: 'number' }) unapplied: number;
  @ApiProperty({ enum: ['Void', 'Success', 'Pending', 'Failed (Decline)', 'Failed (Error)'] }) transaction_status_name:
    'Void' | 'Success' | 'Pending' | 'Failed (Decline)' | 'Failed (Error)';
  @ApiProperty({ type: 'string' }) transaction_status_str: string;
  @ApiProperty({ enum: ['o', 'f', 'v'] }) transaction_status_state: 'o' | 'f' | 'v';
  @ApiProperty({ type: 'string', nullable: true }) memo: string | null;
  @ApiPropertyOptional({ type: () => [WireTransactionApplied], description: 'single reads only' })
  applied_to?: WireTransactionApplied[];
  @ApiPropertyOptional({ type: [Number], description: 'a refund, single reads only: the payment it refunds' })
  payments?: number[];
  @ApiPropertyOptional({ type: [Number], description: 'a payment or credit, single reads only: its refunds' })
  refunds?: number[];
}
