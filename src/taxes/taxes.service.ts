import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import { DataSource, EntityManager, In } from 'typeorm';
import { RequestContext } from 'src/core/context/request-context';
import { ApiError } from 'src/core/envelope/api-error';
import { moneyToJson } from 'src/core/money/decimal';
import { parseDecimalInput } from 'src/core/money/decimal-input';
import { RevisionService } from 'src/core/revisions/revision.service';
import { UnitOfWork } from 'src/database/unit-of-work';
import { Tax } from 'src/reference/entities/reference.entities';
import { CreateTaxDto, CreateTaxGroupDto } from './dto/tax-fields.dto';
import { TaxGroup } from './entities/tax-group.entity';
import { WireTax, WireTaxGroup } from './wire-tax';

/** The tax a group applies, as an invoice line needs it. */
export interface GroupTax {
  tax_group_id: number;
  tax_group_name: string;
  tax_id: number;
  tax_name: string;
  /** A percentage: 6 means 6 %. */
  tax_rate: Decimal;
}

/** Taxes (`/tax`) and the tax groups items point at (`/tax_group`). */
@Injectable()
export class TaxesService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly uow: UnitOfWork,
    private readonly revisions: RevisionService,
  ) {}

  async createTax(ctx: RequestContext, dto: CreateTaxDto): Promise<number> {
    const name = dto.tax_name.trim();
    const rate = parseDecimalInput(dto.tax_rate, 'tax_rate', { min: 0 });
    if (rate.gt(100)) throw ApiError.badRequest('Invalid field "tax_rate": a percentage from 0 to 100.');
    return this.uow.run(async (tx) => {
      const inserted = await tx.manager.insert(Tax, { tax_name: name, tax_rate: rate });
      const id = (inserted.identifiers[0] as { tax_id: number }).tax_id;
      await this.revisions.record(tx, ctx, 'tax', id, 'Tax created');
      return id;
    });
  }

  async createGroup(ctx: RequestContext, dto: CreateTaxGroupDto): Promise<number> {
    const name = dto.tax_group_name.trim();
    const taxId = Number(dto.tax_id);
    if (!Number.isInteger(taxId) || taxId < 1) throw ApiError.badRequest('Invalid field "tax_id": must be an integer.');
    return this.uow.run(async (tx) => {
      if (!(await tx.manager.exists(Tax, { where: { tax_id: taxId } }))) {
        throw ApiError.badRequest(`Field "tax_id": no tax with id ${taxId} exists.`);
      }
      const inserted = await tx.manager.insert(TaxGroup, { tax_group_name: name, tax_id: taxId });
      const id = (inserted.identifiers[0] as { tax_group_id: number }).tax_group_id;
      await this.revisions.record(tx, ctx, 'tax_group', id, 'Tax group created');
      return id;
    });
  }

  async listTaxes(): Promise<WireTax[]> {
    const rows = await this.dataSource.getRepository(Tax).find({ order: { tax_id: 'ASC' } });
    return rows.map((t) => this.presentTax(t));
  }

  async oneTax(id: string): Promise<WireTax> {
    const row = /^\d{1,9}$/.test(id)
      ? await this.dataSource.getRepository(Tax).findOne({ where: { tax_id: Number(id) } })
      : null;
    if (!row) throw ApiError.notFound('tax');
    return this.presentTax(row);
  }

  async listGroups(): Promise<WireTaxGroup[]> {
    const ids = (await this.dataSource.getRepository(TaxGroup).find({ select: { tax_group_id: true } })).map(
      (g) => g.tax_group_id,
    );
    const groups = await this.groupTaxes(this.dataSource.manager, ids);
    return [...groups.values()].sort((a, b) => a.tax_group_id - b.tax_group_id).map((g) => this.presentGroup(g));
  }

  async oneGroup(id: string): Promise<WireTaxGroup> {
    const group = /^\d{1,9}$/.test(id)
      ? (await this.groupTaxes(this.dataSource.manager, [Number(id)])).get(Number(id))
      : undefined;
    if (!group) throw ApiError.notFound('tax_group');
    return this.presentGroup(group);
  }

  /** A 400 when an item names a tax group that does not exist. */
  async assertGroupExists(manager: EntityManager, id: number | null | undefined): Promise<void> {
    if (id === null || id === undefined) return;
    if (!(await manager.exists(TaxGroup, { where: { tax_group_id: id } }))) {
      throw ApiError.badRequest(`Field "tax_group_id": no tax group with id ${id} exists.`);
    }
  }

  /** The tax of each group, for a whole invoice (or page) in one query. */
  async groupTaxes(manager: EntityManager, groupIds: number[]): Promise<Map<number, GroupTax>> {
    const ids = [...new Set(groupIds)];
    if (ids.length === 0) return new Map();
    const rows = await manager
      .createQueryBuilder(TaxGroup, 'g')
      .innerJoinAndMapOne('g.tax', Tax, 't', 't.tax_id = g.tax_id')
      .where({ tax_group_id: In(ids) })
      .getMany();
    return new Map(
      (rows as Array<TaxGroup & { tax: Tax }>).map((g) => [
        g.tax_group_id,
        {
          tax_group_id: g.tax_group_id,
          tax_group_name: g.tax_group_name,
          tax_id: g.tax_id,
          tax_name: g.tax.tax_name,
          tax_rate: g.tax.tax_rate,
        },
      ]),
    );
  }

  private presentTax(t: Tax): WireTax {
    return { tax_id: t.tax_id, tax_name: t.tax_name, tax_rate: moneyToJson(t.tax_rate) };
  }

  private presentGroup(g: GroupTax): WireTaxGroup {
    return {
      tax_group_id: g.tax_group_id,
      tax_group_name: g.tax_group_name,
      tax_id: g.tax_id,
      tax_name: g.tax_name,
      tax_rate: moneyToJson(g.tax_rate),
    };
  }
}
