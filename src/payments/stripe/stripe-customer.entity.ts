import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The one Stripe Customer of a customer that stored a method through Stripe. */
@Entity('stripe_customer')
export class StripeCustomer {
  @PrimaryColumn({ type: 'int' }) customer_id: number;
  @Column({ type: 'varchar', length: 255 }) stripe_customer_id: string;
  @Column({ type: 'datetime' }) created_datetime: Date;
}
