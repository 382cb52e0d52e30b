import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * An event a gateway sent to its webhook endpoint, kept by its id once handled: a
 * delivery of the same id again (gateways retry until answered 2xx) changes nothing.
 */
@Entity('gateway_event')
export class GatewayEvent {
  @PrimaryColumn({ type: 'varchar', length: 255 }) event_id: string;
  @Column({ type: 'varchar', length: 32 }) gateway: string;
  @Column({ type: 'varchar', length: 64 }) event_type: string;
  @Column({ type: 'datetime' }) received_datetime: Date;
}
