import { Column, DeleteDateColumn, Index } from 'typeorm';

/**
 * Columns every API object shares (DESIGN §4): token, external key, who/when wrote it.
 * Timestamps are set from the Clock by the services (never by the database), in UTC.
 */
export abstract class BaseRecord {
  @Index({ unique: true })
  @Column({ type: 'varchar', length: 12 })
  token: string;

  @Index({ unique: true })
  @Column({ type: 'varchar', length: 255, nullable: true })
  external_key: string | null;

  @Index()
  @Column({ type: 'datetime' })
  write_datetime: Date;

  @Column({ type: 'varchar', length: 45, nullable: true })
  write_ipaddr: string | null;

  @Index()
  @Column({ type: 'datetime' })
  mod_datetime: Date;

  @Column({ type: 'varchar', length: 45, nullable: true })
  mod_ipaddr: string | null;
}

/** Soft deletion keeps the row, so its external key stays taken (EXTERNAL_KEY_ON_DELETE=keep). */
export abstract class DeletableRecord extends BaseRecord {
  @DeleteDateColumn({ type: 'datetime', nullable: true })
  deleted_datetime: Date | null;
}

/** Adds `custom_1..custom_<count>` (mixed values stored as text) to an entity class. */
export function customColumns(count: number, indexed = 0): ClassDecorator {
  return (target) => {
    for (let i = 1; i <= count; i++) {
      const property = `custom_${i}`;
      Column({ type: 'varchar', length: 255, nullable: true })(target.prototype as object, property);
      if (i <= indexed) Index()(target.prototype as object, property);
    }
  };
}
