import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC = 'isPublic';

/** Routes a browser reaches without API credentials (portal links). */
export const Public = (): MethodDecorator & ClassDecorator => SetMetadata(IS_PUBLIC, true);
