import { ArgumentMetadata, Injectable, PipeTransform } from '@nestjs/common';
import { DtoClass, validateBody } from './validate-body';

/**
 * `@Body(DtoPipe) dto: CreateCustomerDto`: the body validated against the parameter's DTO
 * class, with the read-only and unknown-field rules the class declares (`@BodyRules`), so a
 * handler receives a typed, checked DTO or the request ends in the 400 naming the field.
 */
@Injectable()
export class DtoPipe implements PipeTransform {
  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    const dto = metadata.metatype;
    if (!dto || dto === Object) {
      throw new Error('DtoPipe needs a DTO class as the parameter type (@Body(DtoPipe) dto: SomeDto).');
    }
    return validateBody(dto as DtoClass<object>, value);
  }
}
