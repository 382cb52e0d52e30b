import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { Clock } from 'src/core/clock/clock';
import { RequestContext } from 'src/core/context/request-context';
import { ApiError } from 'src/core/envelope/api-error';
import { applyListQuery, applyWhere } from 'src/core/query';
import { assertExternalKeyFree } from 'src/core/refs/external-key';
import { findByPathRef, RefTarget } from 'src/core/refs/ref-resolver';
import { RevisionService } from 'src/core/revisions/revision.service';
import { WireFormat } from 'src/core/wire/wire-format';
import { modStamps, newRecordStamps } from 'src/core/context/record-stamps';
import { Tx, UnitOfWork } from 'src/database/unit-of-work';
import { ReferenceService } from 'src/reference/reference.service';
import { TaxesService } from 'src/taxes/taxes.service';
import { ItemFieldsDto } from './dto/item-fields.dto';
import { Item } from './entities/item.entity';
import { Tierset } from './entities/tierset.entity';
import { ITEM_QUERY_FIELDS } from './item.query-fields';
import { ItemPresenter } from './item.presenter';
import { loadCurrentTiersets } from './tierset-loader';
import { insertTierset } from './tierset-writer';
import { parseTierset, TiersetInput } from './tierset-input';
import { dtoColumns } from 'src/core/validation/dto-columns';
import { WireItem } from './wire-item';

export const ITEM_REF: RefTarget<Item> = { entity: Item, idColumn: 'item_id', resource: 'item' };

/** DTO fields that are not plain item columns. */
const NOT_COLUMNS = new Set(['type', 'tiersets', 'pricemodel']);

@Injectable()
export class ItemsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly revisions: RevisionService,
    private readonly reference: ReferenceService,
    private readonly taxes: TaxesService,
    private readonly presenter: ItemPresenter,
    private readonly wire: WireFormat,
  ) {}

  async create(ctx: RequestContext, dto: ItemFieldsDto): Promise<number> {
    if (dto.name === undefined) throw ApiError.badRequest('A required parameter was missing: "name".');
    const pricing = this.pricingOf(dto);
    return this.uow.run(async (tx) => {
      const m = tx.manager;
      await assertExternalKeyFree(m, Item, 'item_id', dto.external_key, 'item');
      await this.taxes.assertGroupExists(m, dto.tax_group_id);
      const now = this.clock.now();
      const inserted = await m.insert(Item, {
        ...dtoColumns<Item>(dto, NOT_COLUMNS),
        item_type: dto.item_type ?? dto.type ?? 'service',
        ...newRecordStamps(ctx, now),
      });
      const itemId = (inserted.identifiers[0] as { item_id: number }).item_id;
      await this.writeTiersets(tx, itemId, pricing ?? [], now);
      await this.revisions.record(tx, ctx, 'item', itemId, 'Item created');
      return itemId;
    });
  }

  async update(ctx: RequestContext, ref: string, dto: ItemFieldsDto): Promise<number> {
    const pricing = this.pricingOf(dto);
    return this.uow.run(async (tx) => {
      const m = tx.manager;
      const item = await findByPathRef(m, ITEM_REF, ref);
      await assertExternalKeyFree(m, Item, 'item_id', dto.external_key, 'item', item.item_id);
      await this.taxes.assertGroupExists(m, dto.tax_group_id);
      const now = this.clock.now();
      const type = dto.item_type ?? dto.type;
      await m.update(Item, item.item_id, {
        ...dtoColumns<Item>(dto, NOT_COLUMNS),
        ...(type ? { item_type: type } : {}),
        ...modStamps(ctx, now),
      });
      if (pricing) {
        // Invoice lines keep pointing at the tierset they were billed at: retire, never rewrite.
        await m.update(Tierset, { item_id: item.item_id, is_current: true }, { is_current: false, mod_datetime: now });
        await this.writeTiersets(tx, item.item_id, pricing, now);
      }
      await this.revisions.record(tx, ctx, 'item', item.item_id, 'Item updated');
      return item.item_id;
    });
  }

  async findOne(ref: string): Promise<WireItem> {
    const item = await findByPathRef(this.dataSource.manager, ITEM_REF, ref);
    return (await this.presentMany(this.dataSource.manager, [item]))[0];
  }

  async idOf(ref: string): Promise<number> {
    return (await findByPathRef(this.dataSource.manager, ITEM_REF, ref)).item_id;
  }

  async list(query: Record<string, unknown>): Promise<WireItem[]> {
    const qb = this.dataSource.manager.createQueryBuilder(Item, 'it');
    applyListQuery(qb, ITEM_QUERY_FIELDS, query, {
      timezone: this.wire.timezone,
      defaultOrder: { expr: 'it.item_id', dir: 'ASC' },
    });
    return this.presentMany(this.dataSource.manager, await qb.getMany());
  }

  async count(query: Record<string, unknown>): Promise<number> {
    const qb = this.dataSource.manager.createQueryBuilder(Item, 'it');
    applyWhere(qb, ITEM_QUERY_FIELDS, query.where, this.wire.timezone);
    return qb.getCount();
  }

  /** A page of items with their current tiersets and tiers: three queries in all. */
  private async presentMany(manager: EntityManager, items: Item[]): Promise<WireItem[]> {
    const tiersets = await loadCurrentTiersets(
      manager,
      items.map((i) => i.item_id),
    );
    return items.map((item) => this.presenter.present(item, tiersets.get(item.item_id) ?? []));
  }

  /** The tiersets sent (`tiersets` array or one `pricemodel` object), or null when pricing is unchanged. */
  private pricingOf(dto: ItemFieldsDto): TiersetInput[] | null {
    if (dto.tiersets !== undefined && dto.pricemodel !== undefined) {
      throw ApiError.badRequest('Send pricing as either "tiersets" or "pricemodel", not both.');
    }
    let parsed: TiersetInput[] | null = null;
    if (dto.pricemodel !== undefined) parsed = [parseTierset(dto.pricemodel, 'pricemodel')];
    if (dto.tiersets !== undefined) {
      if (!Array.isArray(dto.tiersets)) throw ApiError.badRequest('Invalid field "tiersets": must be an array.');
      parsed = dto.tiersets.map((raw: unknown, i) => parseTierset(raw, `tiersets[${i}]`));
    }
    for (const [i, t] of (parsed ?? []).entries()) {
      this.reference.assertExists('currency_id', t.currency_id);
      if (parsed && parsed.findIndex((o) => o.currency_id === t.currency_id) !== i) {
        throw ApiError.badRequest(`Invalid field "tiersets": two tiersets for currency_id ${t.currency_id}.`);
      }
    }
    return parsed;
  }

  private async writeTiersets(tx: Tx, itemId: number, tiersets: TiersetInput[], now: Date): Promise<void> {
    for (const t of tiersets) await insertTierset(tx.manager, t, { itemId, isCurrent: true, now });
  }
}
