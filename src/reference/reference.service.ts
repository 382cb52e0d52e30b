import { Injectable, OnModuleInit } from '@nestjs/common';
import { DataSource, ObjectLiteral } from 'typeorm';
import { ApiError } from 'src/core/envelope/api-error';
import {
  AccountClass,
  Admin,
  Brand,
  Country,
  Currency,
  Language,
  Terms,
  UserType,
} from './entities/reference.entities';

/** The reference tables a write may point at, by their `*_id` field name. */
const TABLES = {
  currency_id: { entity: Currency, key: 'currency_id', path: 'currency' },
  terms_id: { entity: Terms, key: 'terms_id', path: 'terms' },
  country_id: { entity: Country, key: 'country_id', path: 'country' },
  brand_id: { entity: Brand, key: 'brand_id', path: 'brand' },
  class_id: { entity: AccountClass, key: 'class_id', path: 'class' },
  admin_id: { entity: Admin, key: 'admin_id', path: 'admin' },
  language_id: { entity: Language, key: 'language_id', path: 'language' },
  user_type_id: { entity: UserType, key: 'user_type_id', path: 'user_type' },
} as const;

export type ReferenceField = keyof typeof TABLES;

/**
 * Seeded, read-only reference data, loaded once at start and served from memory so
 * presenters can name terms, currencies, classes... without a join per row.
 */
@Injectable()
export class ReferenceService implements OnModuleInit {
  private readonly rows = new Map<ReferenceField, Map<number, ObjectLiteral>>();

  constructor(private readonly dataSource: DataSource) {}

  async onModuleInit(): Promise<void> {
    for (const [field, table] of Object.entries(TABLES) as Array<[ReferenceField, (typeof TABLES)[ReferenceField]]>) {
      const list = await this.dataSource
        .getRepository<ObjectLiteral>(table.entity)
        .find({ order: { [table.key]: 'ASC' } });
      this.rows.set(field, new Map(list.map((row) => [row[table.key] as number, row])));
    }
  }

  /** Reference tables served by `GET /<path>`. */
  static get paths(): Array<{ path: string; field: ReferenceField }> {
    return (Object.entries(TABLES) as Array<[ReferenceField, { path: string }]>).map(([field, t]) => ({
      path: t.path,
      field,
    }));
  }

  list(field: ReferenceField): ObjectLiteral[] {
    return [...(this.rows.get(field)?.values() ?? [])];
  }

  currency(id: number | null): Currency | undefined {
    return this.get('currency_id', id) as Currency | undefined;
  }

  /** The ISO 4217 code of a currency a row points at (every row's currency is in the table). */
  currencyCode(id: number): string {
    const currency = this.currency(id);
    if (!currency) throw new Error(`Currency ${id} is not in the currency table.`);
    return currency.currency_iso4217;
  }

  terms(id: number | null): Terms | undefined {
    return this.get('terms_id', id) as Terms | undefined;
  }

  admin(id: number | null): Admin | undefined {
    return this.get('admin_id', id) as Admin | undefined;
  }

  accountClass(id: number | null): AccountClass | undefined {
    return this.get('class_id', id) as AccountClass | undefined;
  }

  brand(id: number | null): Brand | undefined {
    return this.get('brand_id', id) as Brand | undefined;
  }

  userType(id: number | null): UserType | undefined {
    return this.get('user_type_id', id) as UserType | undefined;
  }

  /** Throws the 400 for an unknown reference id sent on a write. */
  assertExists(field: ReferenceField, id: number | null | undefined): void {
    if (id === null || id === undefined) return;
    if (!this.rows.get(field)?.has(id)) {
      throw ApiError.badRequest(`Field "${field}": no ${TABLES[field].path} with id ${id} exists.`);
    }
  }

  private get(field: ReferenceField, id: number | null): ObjectLiteral | undefined {
    return id === null ? undefined : this.rows.get(field)?.get(id);
  }
}
