import { Injectable } from '@nestjs/common';
import { EntityManager, In } from 'typeorm';
import { Item } from 'src/items/entities/item.entity';
import { loadCurrentTiersets } from 'src/items/tierset-loader';
import { TaxesService } from 'src/taxes/taxes.service';
import { PricingCatalog, PricingInputs } from './invoice-line-pricer';

/**
 * Loads what pricing reads (items, their current tiersets, their tax groups) for a set of
 * items in three queries: once per invoice, or once for a whole batch of drafts.
 */
@Injectable()
export class PricingInputsLoader {
  constructor(private readonly taxes: TaxesService) {}

  async catalog(m: EntityManager, itemIds: Iterable<number>): Promise<PricingCatalog> {
    const ids = [...new Set(itemIds)];
    const items = ids.length ? await m.find(Item, { where: { item_id: In(ids) } }) : [];
    return {
      items: new Map(items.map((i) => [i.item_id, i])),
      tiersets: await loadCurrentTiersets(m, ids),
      groupTaxes: await this.taxes.groupTaxes(
        m,
        items.flatMap((i) => (i.tax_group_id === null ? [] : [i.tax_group_id])),
      ),
    };
  }

  /** The inputs for one invoice: a catalog plus the invoice's currency and tax exemption. */
  static forInvoice(catalog: PricingCatalog, currencyId: number, noTaxes: boolean): PricingInputs {
    // Named, not spread: see ARCHITECTURE.md ("Objects on hot paths").
    return { items: catalog.items, tiersets: catalog.tiersets, groupTaxes: catalog.groupTaxes, currencyId, noTaxes };
  }
}
