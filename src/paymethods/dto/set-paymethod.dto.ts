import { EnumField, IntField } from 'src/core/validation/field-decorators';

/** POST /customer/<id>?action=setPayMethod. */
export class SetPayMethodDto {
  @EnumField(['crd', 'ach', 'tok', 'inv']) paymethod?: 'crd' | 'ach' | 'tok' | 'inv';
  @IntField({ nullable: false }) creditcard_id?: number;
  @IntField({ nullable: false }) ach_id?: number;
  @IntField({ nullable: false }) tokenized_id?: number;
}
