import { Allow } from 'class-validator';
import { BodyRules } from 'src/core/validation/body-rules';
import { BoolField, customFieldsDto, EnumField, IntField, StrField } from 'src/core/validation/field-decorators';
import { Doc, DocRequire } from 'src/core/validation/doc-fields';
import { TiersetInputDto } from './tierset-input.dto';
import { ITEM_TYPES, ItemType } from '../entities/item.entity';

/** Item fields writable on create and update (DESIGN §6 "Items and pricing"). */
@customFieldsDto(3)
export class ItemFieldsDto {
  @StrField(255, false) name?: string;
  @EnumField(ITEM_TYPES) item_type?: ItemType;
  /** Alias of `item_type`, as the recorded create sends it. */
  @EnumField(ITEM_TYPES) type?: ItemType;
  @StrField(65535) description?: string | null;
  @StrField(64) units?: string | null;
  @StrField(64) units_plural?: string | null;
  @BoolField() enabled?: boolean;
  @StrField() accounting_sku?: string | null;
  @StrField() external_key?: string | null;
  @IntField() tax_group_id?: number | null;
  @IntField({ min: 0 }) expire_recurs?: number | null;
  @IntField({ min: 0 }) trial_recurs?: number | null;
  @IntField({ min: 0, nullable: false }) trial_days?: number;
  @BoolField() is_usage?: boolean;
  /** Pricing: an array of tiersets, or one tierset as `pricemodel` (checked by parseTierset). */
  @Allow() @Doc({ type: () => [TiersetInputDto] }) tiersets?: unknown;
  @Allow()
  @Doc({ type: () => TiersetInputDto, description: 'one tierset, instead of `tiersets`' })
  pricemodel?: unknown;
  custom_1?: string | null;
  custom_2?: string | null;
  custom_3?: string | null;
}

/** Fields the API returns for an item but never accepts. */
export const ITEM_READ_ONLY = [
  'item_id',
  'tierset_id',
  'token',
  'write_datetime',
  'mod_datetime',
  'service_data',
  'categories',
  'url_self',
] as const;

/** POST /item. */
@DocRequire('name')
@BodyRules({ readOnly: ITEM_READ_ONLY, requireData: true })
export class CreateItemDto extends ItemFieldsDto {}

/** PUT /item/<id>. */
@BodyRules({ readOnly: ITEM_READ_ONLY })
export class UpdateItemDto extends ItemFieldsDto {}
