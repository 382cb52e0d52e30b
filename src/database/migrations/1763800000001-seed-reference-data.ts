import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Reference data (DESIGN §6 "Reference data"). Inserted with the query builder so the same
 * code runs on SQLite and MySQL/MariaDB. `class` and `tax` start empty.
 */
export class SeedReferenceData1763800000001 implements MigrationInterface {
  name = 'SeedReferenceData1763800000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const seed of SEEDS) {
      await queryRunner.manager
        .createQueryBuilder()
        .insert()
        .into(seed.table, seed.columns)
        .values(seed.rows)
        .execute();
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const seed of [...SEEDS].reverse()) {
      const idColumn = seed.columns[0];
      const escaped = queryRunner.connection.driver.escape(idColumn);
      await queryRunner.manager
        .createQueryBuilder()
        .delete()
        .from(seed.table)
        .where(`${escaped} IN (:...ids)`, { ids: seed.rows.map((row) => row[idColumn]) })
        .execute();
    }
  }
}

type Row = Record<string, string | number>;

interface Seed {
  table: string;
  /** The first column is the id. */
  columns: string[];
  rows: Row[];
}

const CURRENCIES: [string, string, string][] = [
  ['USD', '$', 'US Dollar'],
  ['EUR', '€', 'Euro'],
  ['GBP', '£', 'British Pound'],
  ['CAD', '$', 'Canadian Dollar'],
  ['AUD', '$', 'Australian Dollar'],
];

const TERMS: [string, number][] = [
  ['Due on Receipt', 0],
  ['Net 15', 15],
  ['Net 30', 30],
  ['Net 45', 45],
  ['Net 60', 60],
];

/** ISO 3166-1 alpha-2 codes and English short names; ids follow this order. */
const COUNTRIES: [string, string][] = [
  ['US', 'United States'],
  ['CA', 'Canada'],
  ['GB', 'United Kingdom'],
  ['AU', 'Australia'],
  ['DE', 'Germany'],
  ['FR', 'France'],
  ['NL', 'Netherlands'],
  ['IE', 'Ireland'],
  ['MX', 'Mexico'],
  ['NZ', 'New Zealand'],
  ['ES', 'Spain'],
  ['IT', 'Italy'],
  ['PT', 'Portugal'],
  ['BE', 'Belgium'],
  ['LU', 'Luxembourg'],
  ['CH', 'Switzerland'],
  ['AT', 'Austria'],
  ['DK', 'Denmark'],
  ['SE', 'Sweden'],
  ['NO', 'Norway'],
  ['FI', 'Finland'],
  ['IS', 'Iceland'],
  ['PL', 'Poland'],
  ['CZ', 'Czechia'],
  ['GR', 'Greece'],
  ['IL', 'Israel'],
  ['ZA', 'South Africa'],
  ['IN', 'India'],
  ['JP', 'Japan'],
  ['KR', 'South Korea'],
  ['CN', 'China'],
  ['HK', 'Hong Kong'],
  ['SG', 'Singapore'],
  ['AE', 'United Arab Emirates'],
  ['BR', 'Brazil'],
  ['AR', 'Argentina'],
  ['CL', 'Chile'],
  ['CO', 'Colombia'],
  ['PR', 'Puerto Rico'],
  ['PH', 'Philippines'],
];

const SEEDS: Seed[] = [
  {
    table: 'currency',
    columns: ['currency_id', 'currency_iso4217', 'currency_symbol', 'currency_name'],
    rows: CURRENCIES.map(([iso, symbol, name], i) => ({
      currency_id: i + 1,
      currency_iso4217: iso,
      currency_symbol: symbol,
      currency_name: name,
    })),
  },
  {
    table: 'terms',
    columns: ['terms_id', 'terms_name', 'terms_days'],
    rows: TERMS.map(([name, days], i) => ({ terms_id: i + 1, terms_name: name, terms_days: days })),
  },
  {
    table: 'country',
    columns: ['country_id', 'iso2', 'name'],
    rows: COUNTRIES.map(([iso2, name], i) => ({ country_id: i + 1, iso2, name })),
  },
  {
    table: 'brand',
    columns: ['brand_id', 'brand_name'],
    rows: [{ brand_id: 1, brand_name: 'Default' }],
  },
  {
    table: 'admin',
    columns: ['admin_id', 'admin_name', 'admin_email'],
    rows: [{ admin_id: 1, admin_name: 'Default Admin', admin_email: 'admin@example.com' }],
  },
  {
    table: 'language',
    columns: ['language_id', 'language_name', 'language_iso639'],
    rows: [{ language_id: 1, language_name: 'English', language_iso639: 'en' }],
  },
  {
    table: 'user_type',
    columns: ['user_type_id', 'user_type_name'],
    rows: [{ user_type_id: 1, user_type_name: 'Billing contact' }],
  },
];
