import { EnumField, IntField } from 'src/core/validation/field-decorators';

/** POST /customer/<id>?action=setPayMethod. */
export class SetPayMethodDto {
  @EnumField(['crd', 'ach', 'tok', 'inv']) paymethod?: 'crd' | 'ach' | 'tok' | 'inv';
  @IntField() creditcard_id?: number;
  @IntField() ach_id?: number;
  @IntField() tokenized_id?: number;
}
