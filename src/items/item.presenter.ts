import { Injectable } from '@nestjs/common';
import { WireFormat } from 'src/core/wire/wire-format';
import { Item } from './entities/item.entity';
import { LoadedTierset } from './tierset-loader';
import { TiersetPresenter } from './tierset.presenter';
import { WireItem } from './wire-item';

/** The wire shape of an item (field order as recorded), the same in lists and single reads. */
@Injectable()
export class ItemPresenter {
  constructor(
    private readonly wire: WireFormat,
    private readonly tiersets: TiersetPresenter,
  ) {}

  present(item: Item, tiersets: LoadedTierset[]): WireItem {
    return {
      item_id: item.item_id,
      item_type: item.item_type,
      tierset_id: tiersets[0]?.tierset.tierset_id ?? null,
      name: item.name,
      description: item.description,
      units: item.units,
      accounting_sku: item.accounting_sku,
      external_key: item.external_key,
      token: item.token,
      custom_1: item.custom_1 ?? null,
      custom_2: item.custom_2 ?? null,
      custom_3: item.custom_3 ?? null,
      write_datetime: this.wire.datetime(item.write_datetime),
      mod_datetime: this.wire.datetime(item.mod_datetime),
      units_plural: item.units_plural ?? '',
      enabled: item.enabled,
      tax_group_id: item.tax_group_id,
      expire_recurs: item.expire_recurs,
      trial_recurs: item.trial_recurs,
      service_data: { trial_days: item.trial_days, trial_units: 0, is_usage: item.is_usage },
      url_self: this.wire.apiUrl('item', item.item_id),
      tiersets: tiersets.map((t) => this.tiersets.present(t)),
      categories: [],
    };
  }
}
