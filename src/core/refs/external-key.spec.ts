import { openMemorySqlite } from 'src/database/memory-sqlite.spec-helper';
import 'reflect-metadata';
import { Column, DataSource, Entity, Index, PrimaryGeneratedColumn, QueryFailedError } from 'typeorm';
import { ApiError } from 'src/core/envelope/api-error';
import { insertRow } from 'src/database/insert-row';
import { insertWithExternalKey } from './external-key';

@Entity('gadget')
class Gadget {
  @PrimaryGeneratedColumn({ type: 'int' }) gadget_id: number;
  @Index({ unique: true }) @Column({ type: 'varchar', length: 32, nullable: true }) external_key: string | null;
  @Index({ unique: true }) @Column({ type: 'varchar', length: 32 }) serial: string;
}

describe('insertWithExternalKey', () => {
  let dataSource: DataSource;

  beforeEach(async () => {
    dataSource = await openMemorySqlite([Gadget]);
    await insertRow(dataSource.manager, Gadget, { external_key: 'taken', serial: 's-1' });
  });

  afterEach(() => dataSource.destroy());

  const insert = (externalKey: string | null, serial: string) =>
    insertWithExternalKey(dataSource.manager, Gadget, 'gadget_id', externalKey, 'gadget', () =>
      insertRow(dataSource.manager, Gadget, { external_key: externalKey, serial }),
    );

  it('inserts a row whose key is free and returns what the insert returns', async () => {
    expect(await insert('free', 's-2')).toBe(2);
    expect(await insert(null, 's-3')).toBe(3);
  });

  it('answers a taken external key with the 400 that names it', async () => {
    const error = await insert('taken', 's-2').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe(400);
    expect((error as ApiError).message).toBe(
      'Field "external_key": a gadget with external key "taken" already exists.',
    );
  });

  it('passes on a unique violation of another column unchanged', async () => {
    await expect(insert('fresh', 's-1')).rejects.toBeInstanceOf(QueryFailedError);
    await expect(insert(null, 's-1')).rejects.toBeInstanceOf(QueryFailedError);
  });
});
