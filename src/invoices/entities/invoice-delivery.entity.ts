import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** One delivery of an invoice (`email` or `print`): the invoice's `sent` array. */
@Entity('invoice_delivery')
export class InvoiceDelivery {
  @PrimaryGeneratedColumn({ type: 'int' }) invoice_delivery_id: number;
  @Index() @Column({ type: 'int' }) invoice_id: number;
  @Column({ type: 'varchar', length: 8 }) method: 'email' | 'print';
  @Column({ type: 'varchar', length: 1024, nullable: true }) to_addr: string | null;
  @Column({ type: 'int', nullable: true }) mail_message_id: number | null;
  @Column({ type: 'datetime' }) write_datetime: Date;
}
